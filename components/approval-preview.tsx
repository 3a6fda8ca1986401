import { revealHiddenCharacters } from '@toolgate/engine/client';
import type { ApprovalPreview as StoredPreview } from '@toolgate/engine/stores';
import { TriangleAlert } from 'lucide-react';
import type { Language } from '@/lib/shared/language';
import { type LocalizedPreview, localizePreview } from '@/lib/tools/localize-preview';
import type { ApprovalView } from './api-types';
import type { ToolPart } from './tool-part-outcome';

/**
 * What the call would do, as the tool worked it out on the server when the card was shown:
 * lines of { label, value } and warnings. The server's view (`GET /api/approvals/:id`) wins
 * when the card follows it, since an edit recomputes the preview there; otherwise the saved
 * part's descriptor carries it in every language. Nothing is drawn for tools without one.
 * Warnings quote titles the model wrote: hidden characters are shown as code points.
 */
export function ApprovalPreview({
  part,
  view,
  locale,
  title,
}: {
  part: ToolPart;
  view?: ApprovalView;
  locale: Language;
  title: string;
}) {
  const { preview, previewNote } = previewOf(part, view, locale);
  if (previewNote !== undefined) {
    return (
      <p className="text-xs text-muted-foreground" data-testid="approval-preview-note">
        {previewNote}
      </p>
    );
  }
  if (preview === undefined || (preview.lines.length === 0 && preview.warnings.length === 0)) return null;
  return (
    <section aria-label={title} data-testid="approval-preview" className="flex flex-col gap-1">
      <span className="text-xs font-medium text-muted-foreground">{title}</span>
      {preview.warnings.map((warning) => (
        <p
          key={warning}
          className="flex items-start gap-1 rounded-md border border-warning/60 px-2 py-1 text-xs text-warning"
        >
          <TriangleAlert className="mt-0.5 size-3 shrink-0" aria-hidden="true" />
          {revealHiddenCharacters(warning)}
        </p>
      ))}
      {preview.lines.length > 0 && (
        <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5 text-xs">
          {preview.lines.map((line) => (
            <div key={line.label} className="contents">
              <dt className="text-muted-foreground">{line.label}</dt>
              <dd className="tabular-nums">{revealHiddenCharacters(line.value)}</dd>
            </div>
          ))}
        </dl>
      )}
    </section>
  );
}

function previewOf(
  part: ToolPart,
  view: ApprovalView | undefined,
  locale: Language,
): { preview?: LocalizedPreview; previewNote?: string } {
  if (view !== undefined && (view.preview !== undefined || view.previewNote !== undefined)) {
    return { preview: view.preview, previewNote: view.previewNote };
  }
  const descriptor = part.approval?.descriptor as { preview?: StoredPreview } | undefined;
  return isStoredPreview(descriptor?.preview) ? localizePreview(descriptor.preview, locale) : {};
}

/** The saved part comes from storage: only a well-formed preview is drawn. */
function isStoredPreview(value: unknown): value is StoredPreview {
  if (typeof value !== 'object' || value === null) return false;
  const { lines, warnings } = value as { lines?: unknown; warnings?: unknown };
  return Array.isArray(lines) && Array.isArray(warnings);
}
