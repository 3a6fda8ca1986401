import { ShieldAlert } from 'lucide-react';
import type { ApprovalView, ValueSourceView } from './api-types';
import type { Dictionary, Locale } from './i18n';
import type { ToolPart } from './tool-part-outcome';

/** A call's provenance as the card reads it: from the server's view, else the saved part's descriptor. */
type CardProvenance = Partial<Pick<ApprovalView, 'tainted' | 'provenance' | 'context' | 'untraced'>>;

/**
 * Where a waiting call's values came from, when an outsider may have supplied them: each
 * field an untrusted tool output supplied (and the user did not type), named with that tool,
 * the untrusted reads the call follows (in its turn, or in a chat still marked by them), and
 * an input past the tracing limits. Nothing is drawn for a call whose
 * values are all the user's own. A labelled region, so a screen reader announces it with the card.
 */
export function ApprovalProvenance({
  part,
  view,
  t,
  locale,
  labels,
}: {
  part: ToolPart;
  view?: ApprovalView;
  t: Dictionary;
  locale: Locale;
  /** The tool's field labels, per language (`/api/meta`). */
  labels?: Record<string, Record<'en' | 'zh', string>>;
}) {
  const { tainted = [], provenance = {}, context = [], untraced } = provenanceOf(part, view);
  if (tainted.length === 0 && context.length === 0 && untraced !== true) return null;
  const fieldName = (path: string) => labels?.[path]?.[locale] ?? path;
  const untrustedTools = (sources: readonly ValueSourceView[]) =>
    [
      ...new Set(
        sources.flatMap((source) => (source.source === 'tool' && !source.trusted ? [source.tool] : [])),
      ),
    ]
      .filter((tool): tool is string => typeof tool === 'string')
      .join(', ');
  const readBefore = [...new Set(context.map((read) => read.tool))].join(', ');
  return (
    <section
      aria-label={t.provenanceTitle}
      data-testid="approval-provenance"
      className="flex flex-col gap-1 rounded-md border border-destructive/60 px-2 py-1 text-xs"
    >
      <span className="flex items-center gap-1 font-medium text-destructive">
        <ShieldAlert className="size-3 shrink-0" aria-hidden="true" />
        {t.provenanceTitle}
      </span>
      {tainted.length > 0 && (
        <ul className="flex flex-col gap-0.5">
          {tainted.map((path) => (
            <li key={path} data-testid="tainted-field" data-field={path}>
              {t.taintedField(fieldName(path), untrustedTools(provenance[path] ?? []))}
            </li>
          ))}
        </ul>
      )}
      {readBefore !== '' && <p data-testid="tainted-context">{t.taintedContext(readBefore)}</p>}
      {untraced === true && <p data-testid="tainted-untraced">{t.taintedUntraced}</p>}
    </section>
  );
}

/**
 * Whether a card names an untrusted source (a field an outsider supplied, or a read before the
 * call): nothing may widen such a card ("for this chat", a standing grant, "Allow all").
 */
export function isTaintedCard(part: ToolPart, view?: ApprovalView): boolean {
  const { tainted = [], context = [] } = provenanceOf(part, view);
  return tainted.length > 0 || context.length > 0;
}

function provenanceOf(part: ToolPart, view: ApprovalView | undefined): CardProvenance {
  if (view?.tainted !== undefined) return view;
  const stored = (part.approval as { descriptor?: { provenance?: unknown } } | undefined)?.descriptor
    ?.provenance;
  if (typeof stored !== 'object' || stored === null) return {};
  const { tainted, provenance, context, untraced } = stored as Record<string, unknown>;
  // The saved part comes from storage: only well-formed fields are drawn.
  return {
    tainted: Array.isArray(tainted) ? tainted.filter((path): path is string => typeof path === 'string') : [],
    provenance:
      typeof provenance === 'object' && provenance !== null
        ? (provenance as CardProvenance['provenance'])
        : {},
    context: Array.isArray(context)
      ? context.filter((read): read is { tool: string; toolCallId: string } => typeof read?.tool === 'string')
      : [],
    ...(untraced === true && { untraced: true as const }),
  };
}
