import type { DynamicToolUIPart, ToolUIPart } from 'ai';
import { getToolName } from 'ai';
import {
  Ban,
  ChevronRight,
  CircleCheck,
  CircleX,
  Clock,
  History,
  LoaderCircle,
  type LucideIcon,
  ShieldCheck,
  ShieldQuestion,
  Wrench,
} from 'lucide-react';
import { useState } from 'react';
import { findErrorReference } from '@/lib/errors/error-reference';
import { parseMcpToolName } from '@/lib/mcp/mcp-tool-name';
import { denialNoteOf, isEditedOutput } from '@/lib/shells/wrap-tools-with-approval';
import { summarizeToolCall, summarizeToolResult } from '@/lib/tools/tool-summaries';
import type { ApproveToolCall } from './api-types';
import { extendLocalDeadline, localDeadlineOf } from './approval-deadlines';
import { ApprovalEditForm, canEditInput } from './approval-edit-form';
import { Badge } from './ui/badge';
import { Button } from './ui/button';
import { Card, CardContent, CardFooter, CardHeader, CardTitle } from './ui/card';
import { cn } from './ui/cn';
import { Textarea } from './ui/textarea';
import { useCountdown } from './use-countdown';
import { useWorkspace } from './workspace-provider';

/** A tool call as the chat holds it: a static tool part or a dynamic one; both share the seven states. */
export type ToolPart = ToolUIPart | DynamicToolUIPart;

type BadgeVariant = 'secondary' | 'success' | 'warning' | 'destructive' | 'outline';

// Exhaustive on purpose (as ai-elements does): a state added to the SDK is a type error here, not a blank card.
const stateViews: Record<ToolPart['state'], { icon: LucideIcon; variant: BadgeVariant; spin?: boolean }> = {
  'input-streaming': { icon: LoaderCircle, variant: 'secondary', spin: true },
  'input-available': { icon: LoaderCircle, variant: 'secondary', spin: true },
  'approval-requested': { icon: ShieldQuestion, variant: 'warning' },
  'approval-responded': { icon: ShieldCheck, variant: 'secondary' },
  'output-available': { icon: CircleCheck, variant: 'success' },
  'output-error': { icon: CircleX, variant: 'destructive' },
  'output-denied': { icon: Ban, variant: 'destructive' },
};

/** How an approval ended, as the user reads it. */
type Outcome = 'approved' | 'denied' | 'expired' | 'cancelled';

const outcomeViews: Record<Outcome, { icon: LucideIcon; variant: BadgeVariant }> = {
  approved: { icon: ShieldCheck, variant: 'success' },
  denied: { icon: Ban, variant: 'destructive' },
  expired: { icon: Clock, variant: 'warning' },
  cancelled: { icon: CircleX, variant: 'secondary' },
};

/**
 * The server's denial result, returned to the model as a normal output. Its
 * `message` is written for the model, in English: the card never shows it.
 */
type Denial = { denied: true; reason?: string; message?: string };

function asDenial(output: unknown): Denial | null {
  if (typeof output !== 'object' || output === null) return null;
  return (output as { denied?: unknown }).denied === true ? (output as Denial) : null;
}

/** The server's rate-limit refusal; like a denial, its `message` is for the model. */
function rateLimitedWait(output: unknown): number | null {
  if (typeof output !== 'object' || output === null) return null;
  const { rateLimited, retryAfterMs } = output as { rateLimited?: unknown; retryAfterMs?: unknown };
  return rateLimited === true && typeof retryAfterMs === 'number' ? retryAfterMs : null;
}

// 'denied' is a person saying no; 'timeout' nobody answered; 'aborted' / 'closed' / 'superseded'
// the user stopped, deleted the chat or wrote something else instead.
function outcomeOfDenial(denial: Denial): Outcome {
  if (denial.reason === 'timeout') return 'expired';
  if (denial.reason === 'aborted' || denial.reason === 'closed' || denial.reason === 'superseded')
    return 'cancelled';
  return 'denied';
}

/** A denied part (`output-denied`) carries its reason code in front of the explanation. */
function denialOfDeniedPart(part: ToolPart): Denial | null {
  if (part.state !== 'output-denied') return null;
  const text = part.approval.reason ?? '';
  const separator = text.indexOf(':');
  if (separator === -1) return { denied: true, reason: 'denied', message: text || undefined };
  return { denied: true, reason: text.slice(0, separator), message: text.slice(separator + 1).trim() };
}

function deadlineOf(part: ToolPart): number | null {
  if (part.approval === undefined) return null;
  const descriptor: unknown = part.approval.descriptor;
  return localDeadlineOf(
    part.approval.id,
    typeof descriptor === 'object' && descriptor !== null
      ? (descriptor as Record<string, unknown>)
      : undefined,
  );
}

/** The tool's own one-line summary of the call, in the reader's language, as the server sent it. */
function summaryOf(part: ToolPart, locale: string): string | undefined {
  const descriptor = part.approval?.descriptor as { summary?: Record<string, unknown> } | undefined;
  const summary = descriptor?.summary?.[locale];
  return typeof summary === 'string' && summary !== '' ? summary : undefined;
}

function prettyJson(value: unknown): string {
  if (value === undefined) return '';
  try {
    return JSON.stringify(value, null, 2);
  } catch {
    return String(value);
  }
}

/** What the user decided on this card before the stream caught up. */
type LocalDecision =
  | { kind: 'none' }
  | { kind: 'sending'; approved: boolean }
  | { kind: 'decided'; outcome: Outcome }
  | { kind: 'failed'; retryable: boolean };

/** What the person says beside a plain allow / deny. */
type DecisionExtras = { input?: Record<string, unknown>; remember?: 'chat'; reason?: string };

/** Which part of the card the person is filling in: the buttons, the edit form, or a note with a "no". */
type CardMode = 'buttons' | 'edit' | 'denyNote';

/** How many times one card may ask for more time (the server enforces it too). */
const maxExtensions = 3;

/** The extensions a saved card already used, as the server sent them. */
function extensionsOf(part: ToolPart): number {
  const descriptor = part.approval?.descriptor as { extensions?: unknown } | undefined;
  return typeof descriptor?.extensions === 'number' ? descriptor.extensions : 0;
}

/**
 * One tool call, in whichever of its seven states it is. While the call waits for
 * approval it carries the approval card: arguments, a countdown to auto-deny, and
 * Allow / Deny, which call the server action and then give way to the outcome.
 */
export function ToolCard({
  part,
  live,
  chatId,
  approve,
  onDecided,
}: {
  part: ToolPart;
  /** True while this part's response is still streaming here; a saved card is answered from the server's record. */
  live: boolean;
  chatId: string;
  approve: ApproveToolCall;
  /** `parked`: nobody on this page streams the turn, so its continuation must be resumed. */
  onDecided: (event: { parked: boolean; remembered?: boolean }) => void;
}) {
  const { t, meta, locale } = useWorkspace();
  const toolName = getToolName(part);
  const mcpServer = parseMcpToolName(toolName)?.server;
  // The server answered this call from the idempotency window instead of running the tool.
  const replayed = part.toolMetadata?.replayed === true;
  const [decision, setDecision] = useState<LocalDecision>({ kind: 'none' });
  const [mode, setMode] = useState<CardMode>('buttons');
  const [fieldErrors, setFieldErrors] = useState<Record<string, string[]>>({});
  const [note, setNote] = useState('');
  const [extensionsUsed, setExtensionsUsed] = useState(() => extensionsOf(part));
  const [extendedDeadline, setExtendedDeadline] = useState<number | null>(null);
  const inputSchema = meta?.toolInputSchemas?.[toolName];
  // The server keeps an approval until its deadline, Stop, a new message or a decision, whether
  // or not this page still streams the turn: a saved card stays answerable after a reload.
  const deadline = extendedDeadline ?? deadlineOf(part);
  const waiting =
    part.state === 'approval-requested' && (live || (deadline !== null && deadline > Date.now()));
  const secondsLeft = useCountdown(deadline, waiting && decision.kind !== 'decided');

  const denial = part.state === 'output-available' ? asDenial(part.output) : denialOfDeniedPart(part);
  const deniedNote = denial?.message === undefined ? undefined : denialNoteOf(denial.message);
  const edited = part.state === 'output-available' && isEditedOutput(part.output);
  const outcome = resolveOutcome(part, live, denial, decision, secondsLeft, deadline);
  const view = stateViews[part.state];
  const StateIcon = view.icon;
  const showButtons =
    waiting &&
    outcome === null &&
    (decision.kind === 'none' ||
      decision.kind === 'sending' ||
      (decision.kind === 'failed' && decision.retryable));

  // A read that never waited for a person folds to one line; writes, cards and anything
  // that went wrong (a denial, a rate limit, an error) keep the full card.
  const foldsToOneLine =
    meta?.readOnlyTools?.includes(toolName) === true &&
    !meta.confirmTools.includes(toolName) &&
    part.approval === undefined &&
    denial === null &&
    (part.state === 'input-streaming' ||
      part.state === 'input-available' ||
      (part.state === 'output-available' && rateLimitedWait(part.output) === null));
  if (foldsToOneLine) return <ReadToolLine part={part} toolName={toolName} mcpServer={mcpServer} />;

  async function decide(approved: boolean, extras: DecisionExtras = {}) {
    if (!part.approval) return;
    setDecision({ kind: 'sending', approved });
    let settled = true;
    try {
      const result = await approve({ approvalId: part.approval.id, chatId, approved, ...extras });
      if ('error' in result && result.fieldErrors !== undefined) {
        // The edit broke the tool's rules: the call is still pending, so the form stays open.
        setFieldErrors(result.fieldErrors);
        setDecision({ kind: 'none' });
        settled = false;
      } else if ('error' in result) {
        // Unknown, mismatched or already settled: deciding again cannot help, so the buttons go.
        setDecision({ kind: 'failed', retryable: false });
      } else {
        setDecision({ kind: 'decided', outcome: result.status === 'approved' ? 'approved' : 'denied' });
      }
    } catch {
      // The action never ran (network, server restart): the approval may still be open, so let the user retry.
      setDecision({ kind: 'failed', retryable: true });
    } finally {
      if (settled) onDecided({ parked: !live, remembered: extras.remember === 'chat' });
    }
  }

  /** "+60 s": the server moves the deadline; the countdown follows the time it says is left. */
  async function extendDeadline() {
    if (!part.approval) return;
    const approvalId = part.approval.id;
    const response = await fetch('/api/chat/approve/extend', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ approvalId, chatId }),
    }).catch(() => undefined);
    if (response?.status === 409) setExtensionsUsed(maxExtensions);
    if (!response?.ok) return;
    const { remainingMs } = (await response.json()) as { remainingMs: number };
    setExtendedDeadline(extendLocalDeadline(approvalId, remainingMs));
    setExtensionsUsed((used) => used + 1);
  }

  return (
    <Card
      role="group"
      aria-label={t.toolCard(toolName)}
      data-testid="tool-card"
      data-state={part.state}
      data-approval-id={part.approval?.id}
      data-waiting={showButtons ? 'true' : undefined}
      tabIndex={showButtons ? -1 : undefined}
      className={cn('my-2 w-full max-w-xl', waiting && outcome === null && 'border-warning/60')}
    >
      <CardHeader>
        <Wrench className="size-4 text-muted-foreground" aria-hidden="true" />
        {summaryOf(part, locale) !== undefined ? (
          <CardTitle data-testid="tool-summary">
            {summaryOf(part, locale)}{' '}
            <span className="font-mono text-xs text-muted-foreground">{toolName}</span>
          </CardTitle>
        ) : (
          <CardTitle className="font-mono">{toolName}</CardTitle>
        )}
        <div className="ml-auto flex items-center gap-1">
          {mcpServer !== undefined && (
            <Badge variant="outline" data-testid="mcp-server">
              {t.mcpServer(mcpServer)}
            </Badge>
          )}
          {replayed && (
            <Badge variant="outline" data-testid="replayed">
              <History aria-hidden="true" />
              {t.replayed}
            </Badge>
          )}
          {edited && (
            <Badge variant="outline" data-testid="edited">
              {t.editedBadge}
            </Badge>
          )}
          {outcome !== null && <OutcomeBadge outcome={outcome} />}
          {/* A denial is told by its outcome badge; "Done" beside it would only confuse. */}
          {denial === null &&
            !(part.state === 'approval-requested' && outcome !== null) &&
            part.state !== 'output-denied' && (
              <Badge variant={view.variant} data-testid="tool-state">
                <StateIcon className={cn(view.spin && 'animate-spin')} aria-hidden="true" />
                {t.toolStates[part.state]}
              </Badge>
            )}
        </div>
      </CardHeader>
      <CardContent>
        {waiting && outcome === null && <p className="text-sm font-medium">{t.approvalTitle}</p>}
        {waiting && outcome === null && <p className="text-xs text-muted-foreground">{t.approvalExplain}</p>}
        {showButtons && mode === 'edit' && inputSchema !== undefined ? (
          <ApprovalEditForm
            schema={inputSchema}
            labels={meta?.toolFieldLabels?.[toolName]}
            input={part.input}
            fieldErrors={fieldErrors}
            sending={decision.kind === 'sending'}
            onSubmit={(input) => void decide(true, { input })}
            onCancel={() => {
              setMode('buttons');
              setFieldErrors({});
            }}
          />
        ) : (
          part.input !== undefined && (
            <Fold label={t.arguments} open={showButtons}>
              <pre className="overflow-x-auto rounded-md bg-muted p-2 font-mono text-xs">
                {prettyJson(part.input)}
              </pre>
            </Fold>
          )
        )}
        {replayed && (
          <p className="text-xs text-muted-foreground" data-testid="replayed-note">
            {t.replayedExplain}
          </p>
        )}
        <ToolBody part={part} denial={denial} outcome={outcome} />
        {deniedNote !== undefined && (
          <Section label={t.yourNote}>
            <p className="text-xs" data-testid="denial-note">
              {deniedNote}
            </p>
          </Section>
        )}
        {showButtons && mode === 'denyNote' && (
          <form
            className="flex flex-col gap-1"
            onSubmit={(event) => {
              event.preventDefault();
              const reason = note.trim();
              void decide(false, reason === '' ? {} : { reason });
            }}
          >
            <label htmlFor={`deny-note-${part.toolCallId}`} className="text-xs font-medium">
              {t.denyNoteLabel}
            </label>
            <Textarea
              id={`deny-note-${part.toolCallId}`}
              maxLength={500}
              value={note}
              onChange={(event) => setNote(event.target.value)}
            />
            <div className="flex justify-end gap-2">
              <Button type="button" variant="ghost" size="sm" onClick={() => setMode('buttons')}>
                {t.cancel}
              </Button>
              <Button type="submit" variant="outline" size="sm" disabled={decision.kind === 'sending'}>
                {t.sendDenial}
              </Button>
            </div>
          </form>
        )}
        {decision.kind === 'failed' && (
          <p role="alert" className="text-xs text-destructive">
            {t.approvalFailed}
          </p>
        )}
      </CardContent>
      {showButtons && (
        <CardFooter className="flex-wrap">
          {secondsLeft !== null && (
            <span role="timer" aria-live="off" className="mr-auto text-xs tabular-nums text-muted-foreground">
              <Clock className="mr-1 inline size-3" aria-hidden="true" />
              {t.autoDenyIn(secondsLeft)}
            </span>
          )}
          <Button
            variant="ghost"
            size="sm"
            aria-label={t.moreTimeLabel(maxExtensions - extensionsUsed)}
            disabled={extensionsUsed >= maxExtensions || decision.kind === 'sending'}
            onClick={() => void extendDeadline()}
          >
            {t.moreTime}
          </Button>
          {mode === 'buttons' && canEditInput(inputSchema) && (
            <Button
              variant="ghost"
              size="sm"
              disabled={decision.kind === 'sending'}
              onClick={() => setMode('edit')}
            >
              {t.edit}
            </Button>
          )}
          {mode === 'buttons' && (
            <Button
              variant="ghost"
              size="sm"
              disabled={decision.kind === 'sending'}
              onClick={() => setMode('denyNote')}
            >
              {t.denyWithNote}
            </Button>
          )}
          {mode === 'buttons' && (
            <Button
              variant="outline"
              size="sm"
              disabled={decision.kind === 'sending'}
              onClick={() => decide(false)}
            >
              {decision.kind === 'sending' && !decision.approved && <LoaderCircle className="animate-spin" />}
              {t.deny}
            </Button>
          )}
          {mode === 'buttons' && (
            <Button
              variant="outline"
              size="sm"
              disabled={decision.kind === 'sending'}
              onClick={() => decide(true, { remember: 'chat' })}
            >
              {t.allowForChat}
            </Button>
          )}
          {mode === 'buttons' && (
            <Button size="sm" disabled={decision.kind === 'sending'} onClick={() => decide(true)}>
              {decision.kind === 'sending' && decision.approved && <LoaderCircle className="animate-spin" />}
              {t.allow}
            </Button>
          )}
        </CardFooter>
      )}
    </Card>
  );
}

/**
 * A read-only call, folded: one line with the call's summary and its result's, both the
 * tool's own words in the reader's language (an MCP tool, which declares none, shows its
 * name and a generic line); opening it shows the arguments and the raw result.
 */
function ReadToolLine({
  part,
  toolName,
  mcpServer,
}: {
  part: ToolPart;
  toolName: string;
  mcpServer: string | undefined;
}) {
  const { t, locale } = useWorkspace();
  const summary = summarizeToolCall(toolName, part.input)?.[locale];
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

/**
 * The outcome to show, most authoritative first: the server's result, then what
 * the user decided here, then the local clock (Expired shows at 0 even before the
 * server's timeout denial arrives).
 */
function resolveOutcome(
  part: ToolPart,
  live: boolean,
  denial: Denial | null,
  decision: LocalDecision,
  secondsLeft: number | null,
  deadline: number | null,
): Outcome | null {
  if (denial !== null) return outcomeOfDenial(denial);
  switch (part.state) {
    case 'output-available':
    case 'output-error':
      return part.approval ? 'approved' : null;
    case 'output-denied':
      return 'denied';
    case 'approval-responded':
      return part.approval.approved ? 'approved' : 'denied';
    case 'approval-requested':
      if (decision.kind === 'decided') return decision.outcome;
      if (!live && (deadline === null || deadline <= Date.now())) return 'expired';
      // While a decision is on its way the server has the last word; otherwise 0 means expired.
      if (decision.kind !== 'sending' && secondsLeft === 0) return 'expired';
      return null;
    case 'input-streaming':
    case 'input-available':
      return null;
  }
}

function OutcomeBadge({ outcome }: { outcome: Outcome }) {
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

function Section({ label, children }: { label: string; children: React.ReactNode }) {
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
function Fold({ label, open, children }: { label: string; open: boolean; children: React.ReactNode }) {
  return (
    <details open={open} className="flex flex-col gap-1">
      <summary className="cursor-pointer text-xs font-medium text-muted-foreground">{label}</summary>
      {children}
    </details>
  );
}

function ToolBody({
  part,
  denial,
  outcome,
}: {
  part: ToolPart;
  denial: Denial | null;
  outcome: Outcome | null;
}) {
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
        return outcome !== null && outcome !== 'approved' ? (
          <p className="text-xs text-muted-foreground">{t.denialExplain[outcome]}</p>
        ) : null;
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
