import { findErrorReference, revealHiddenCharacters } from '@toolgate/engine/client';
import {
  Ban,
  ChevronRight,
  CircleCheck,
  CircleX,
  Clock,
  LoaderCircle,
  type LucideIcon,
  ShieldCheck,
  ShieldQuestion,
} from 'lucide-react';
import { summarizeToolCall, summarizeToolResult } from '@/lib/tools/tool-summaries';
import {
  type Denial,
  type Outcome,
  rateLimitedWait,
  reasonOfDenial,
  type ToolPart,
} from './tool-part-outcome';
import { Badge } from './ui/badge';
import { Card, CardContent } from './ui/card';
import { cn } from './ui/cn';
import { useWorkspace } from './workspace-provider';

type BadgeVariant = 'secondary' | 'success' | 'warning' | 'destructive' | 'outline';

// Exhaustive on purpose (as ai-elements does): a state added to the SDK is a type error here, not a blank card.
export const stateViews: Record<
  ToolPart['state'],
  { icon: LucideIcon; variant: BadgeVariant; spin?: boolean }
> = {
  'input-streaming': { icon: LoaderCircle, variant: 'secondary', spin: true },
  'input-available': { icon: LoaderCircle, variant: 'secondary', spin: true },
  'approval-requested': { icon: ShieldQuestion, variant: 'warning' },
  'approval-responded': { icon: ShieldCheck, variant: 'secondary' },
  'output-available': { icon: CircleCheck, variant: 'success' },
  'output-error': { icon: CircleX, variant: 'destructive' },
  'output-denied': { icon: Ban, variant: 'destructive' },
};

const outcomeViews: Record<Outcome, { icon: LucideIcon; variant: BadgeVariant }> = {
  approved: { icon: ShieldCheck, variant: 'success' },
  denied: { icon: Ban, variant: 'destructive' },
  expired: { icon: Clock, variant: 'warning' },
  cancelled: { icon: CircleX, variant: 'secondary' },
};

/** A value as indented JSON, for the raw arguments and results. */
export function prettyJson(value: unknown): string {
  if (value === undefined) return '';
  try {
    return revealHiddenCharacters(JSON.stringify(value, null, 2));
  } catch {
    return revealHiddenCharacters(String(value));
  }
}

/**
 * A read-only call, folded: one line with the call's summary and its result's, both the
 * tool's own words in the reader's language (an MCP tool, which declares none, shows its
 * name and a generic line); opening it shows the arguments and the raw result.
 */
export function ReadToolLine({
  part,
  toolName,
  mcpServer,
}: {
  part: ToolPart;
  toolName: string;
  mcpServer: string | undefined;
}) {
  const { t, locale } = useWorkspace();
  const written = summarizeToolCall(toolName, part.input)?.[locale];
  const summary = written === undefined ? undefined : revealHiddenCharacters(written);
  const done = part.state === 'output-available';
  const resultLine = done
    ? (summarizeToolResult(toolName, part.output)?.[locale] ?? t.readResultFallback)
    : undefined;
  const view = stateViews[part.state];
  const StateIcon = view.icon;
  return (
    <Card
      role="group"
      aria-label={t.toolCard(toolName)}
      data-testid="tool-card"
      data-state={part.state}
      data-folded="true"
      className="my-1 w-full max-w-xl"
    >
      <details className="group">
        <summary
          data-testid="tool-line"
          className="flex cursor-pointer list-none flex-wrap items-center gap-x-2 gap-y-1 px-3 py-2 text-sm"
        >
          <ChevronRight
            className="size-4 shrink-0 text-muted-foreground transition-transform group-open:rotate-90"
            aria-hidden="true"
          />
          {summary !== undefined ? (
            <span className="font-medium" data-testid="tool-summary">
              {summary}
            </span>
          ) : (
            <span className="font-mono text-xs font-medium">{toolName}</span>
          )}
          {resultLine !== undefined ? (
            <span className="text-muted-foreground" data-testid="tool-result-line">
              {resultLine}
            </span>
          ) : (
            <Badge variant={view.variant} data-testid="tool-state">
              <StateIcon className={cn(view.spin && 'animate-spin')} aria-hidden="true" />
              {t.toolStates[part.state]}
            </Badge>
          )}
          <span className="ml-auto flex items-center gap-1">
            {mcpServer !== undefined && (
              <Badge variant="outline" data-testid="mcp-server">
                {t.mcpServer(mcpServer)}
              </Badge>
            )}
            {summary !== undefined && (
              <span className="font-mono text-xs text-muted-foreground">{toolName}</span>
            )}
          </span>
        </summary>
        <CardContent className="border-t border-border">
          {part.input !== undefined && (
            <Section label={t.arguments}>
              <pre className="overflow-x-auto rounded-md bg-muted p-2 font-mono text-xs">
                {prettyJson(part.input)}
              </pre>
            </Section>
          )}
          {done && (
            <Section label={t.result}>
              <pre
                className="overflow-x-auto rounded-md bg-muted p-2 font-mono text-xs"
                data-testid="tool-result"
              >
                {prettyJson(part.output)}
              </pre>
            </Section>
          )}
        </CardContent>
      </details>
    </Card>
  );
}

export function OutcomeBadge({ outcome }: { outcome: Outcome }) {
  const { t } = useWorkspace();
  const view = outcomeViews[outcome];
  const Icon = view.icon;
  return (
    <Badge variant={view.variant} data-testid="approval-outcome">
      <Icon aria-hidden="true" />
      {t[outcome]}
    </Badge>
  );
}

export function Section({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="flex flex-col gap-1">
      <span className="text-xs font-medium text-muted-foreground">{label}</span>
      {children}
    </div>
  );
}

/**
 * Raw JSON behind a disclosure: the tool's data, not words for a person, so it stays out of
 * sight unless asked for (the arguments stay open while they are what the person decides on).
 */
export function Fold({ label, open, children }: { label: string; open: boolean; children: React.ReactNode }) {
  return (
    <details open={open} className="flex flex-col gap-1">
      <summary className="cursor-pointer text-xs font-medium text-muted-foreground">{label}</summary>
      {children}
    </details>
  );
}

export function ToolBody({ part, denial }: { part: ToolPart; denial: Denial | null }) {
  const { t } = useWorkspace();
  switch (part.state) {
    case 'input-streaming':
    case 'input-available':
    case 'approval-requested':
    case 'approval-responded':
    case 'output-denied':
      return null;
    case 'output-error': {
      // The server sends a reference id, never the error itself; the words are ours, in the reader's language.
      const reference = findErrorReference(part.errorText);
      return (
        <Section label={t.error}>
          <p className="text-xs text-destructive">{t.toolFailed}</p>
          {reference !== undefined && (
            <p className="font-mono text-xs text-muted-foreground" data-testid="error-reference">
              {t.errorReference(reference)}
            </p>
          )}
        </Section>
      );
    }
    case 'output-available': {
      if (denial !== null) {
        // The text of its reason; none for a newer policy's refusal, told beside the card's steps
        // (tool-card.tsx). A reason the engine does not name reads as a refusal, declined by nobody.
        const explain = t.denials[reasonOfDenial(denial) ?? 'policy'].card;
        return explain !== null ? <p className="text-xs text-muted-foreground">{explain}</p> : null;
      }
      const waitMs = rateLimitedWait(part.output);
      if (waitMs !== null) {
        const seconds = Math.max(1, Math.ceil(waitMs / 1000));
        return <p className="text-xs text-muted-foreground">{t.rateLimitedExplain(seconds)}</p>;
      }
      return (
        <Fold label={t.result} open={false}>
          <pre className="overflow-x-auto rounded-md bg-muted p-2 font-mono text-xs">
            {prettyJson(part.output)}
          </pre>
        </Fold>
      );
    }
  }
}
