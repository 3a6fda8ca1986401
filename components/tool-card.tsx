import { revealHiddenCharacters } from '@toolgate/engine/client';
import { getToolName } from 'ai';
import { Clock, History, LoaderCircle, Wrench } from 'lucide-react';
import { useState } from 'react';
import { makerText } from '@/lib/ai/offline-decided-by';
import { parseMcpToolName } from '@/lib/mcp/mcp-tool-name';
import { readableDeadline } from '@/lib/shared/readable-wait';
import { summarizeToolCall } from '@/lib/tools/tool-summaries';
import type { ApprovalView } from './api-types';
import { ApprovalEditForm, canEditInput } from './approval-edit-form';
import { ApprovalPreview } from './approval-preview';
import { ApprovalProvenance, isTaintedCard } from './approval-provenance';
import { ApprovalQuestions } from './approval-questions';
import { ApprovalSteps, roleLabel } from './approval-steps';
import { StandingGrantForm } from './standing-grant-form';
import {
  Fold,
  OutcomeBadge,
  prettyJson,
  ReadToolLine,
  Section,
  stateViews,
  ToolBody,
} from './tool-card-parts';
import { rateLimitedWait, summaryOf, type ToolPart } from './tool-part-outcome';
import { Badge } from './ui/badge';
import { Button } from './ui/button';
import { Card, CardContent, CardFooter, CardHeader, CardTitle } from './ui/card';
import { cn } from './ui/cn';
import { Textarea } from './ui/textarea';
import { UndoControl } from './undo-control';
import { maxExtensions, useApprovalCard } from './use-approval-card';
import { useWorkspace } from './workspace-provider';

export type { ToolPart } from './tool-part-outcome';

/**
 * One tool call, in whichever of its seven states it is. While the call waits for
 * approval it carries the approval card: arguments, a countdown to auto-deny, and
 * Allow / Deny, which send the decision and then give way to the outcome.
 */
export function ToolCard({
  part,
  live,
  chatId,
  onDecided,
  initialView,
}: {
  part: ToolPart;
  /** True while this part's response is still streaming here; a saved card is answered from the server's record. */
  live: boolean;
  chatId: string;
  /** `parked`: nobody on this page streams the turn, so its continuation must be resumed. */
  onDecided: (event: { parked: boolean; remembered?: boolean }) => void;
  /** The server's view, when the page already read it (the approval's own page). */
  initialView?: ApprovalView;
}) {
  const { t, meta, locale } = useWorkspace();
  const toolName = getToolName(part);
  const mcpServer = parseMcpToolName(toolName)?.server;
  // The server answered this call from the idempotency window instead of running the tool.
  const replayed = part.toolMetadata?.replayed === true;
  const card = useApprovalCard({ part, live, chatId, onDecided, initialView });
  const { decision, mode, setMode, fieldErrors, note, setNote, extensionsUsed, waiting, secondsLeft } = card;
  const { denial, deniedNote, edited, outcome, showButtons, decide, extendDeadline } = card;
  const { steps, canAllow, isRequester, decidedBy, editedBy, editedInput } = card;
  const [more, setMore] = useState(false);
  // The title says what ran: the edited input once someone changed it.
  const title =
    (editedInput !== undefined ? summarizeToolCall(toolName, editedInput)?.[locale] : undefined) ??
    card.view?.summary?.[locale] ??
    summaryOf(part, locale);
  // A card only others decide (a role step) asks nothing of its requester but patience.
  const othersDecideIt = steps !== undefined && !canAllow && isRequester;
  const untilText =
    card.deadline === null
      ? ''
      : `${new Date(card.deadline).toLocaleTimeString(locale === 'zh' ? 'zh-CN' : 'en-GB', { hour: '2-digit', minute: '2-digit' })} (${readableDeadline(card.deadline, Date.now(), locale)})`;
  // "+60 s" only where a minute matters: a wait of a few minutes, not hours.
  const shortWait = card.deadline !== null && card.deadline - Date.now() < 10 * 60_000;
  const waitingWho =
    steps === undefined
      ? ''
      : [
          ...new Set(
            steps
              .filter((step) => step.decision === undefined && step.kind === 'role')
              .map((step) => roleLabel(t, step.escalatedTo ?? step.role ?? '')),
          ),
        ].join(', ');
  const inputSchema = meta?.toolInputSchemas?.[toolName];
  // "For this chat" and standing grants stand in for the requester only, never for a call an outsider drove.
  const mayRemember = canAllow && steps === undefined && !isTaintedCard(part, card.view);
  const view = stateViews[part.state];
  const StateIcon = view.icon;
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
        {title !== undefined ? (
          <CardTitle data-testid="tool-summary">
            {title} <span className="font-mono text-xs text-muted-foreground">{toolName}</span>
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
        {waiting && outcome === null && !othersDecideIt && (
          <p className="text-sm font-medium" data-testid="approval-sentence">
            {t.ownCardSentence(title ?? toolName)}
          </p>
        )}
        {waiting && outcome === null && othersDecideIt && (
          <p className="text-sm" data-testid="others-decide-sentence">
            {t.waitingForOthersSentence(waitingWho || t.stepRequester, untilText)}
          </p>
        )}
        {steps !== undefined && (
          <ApprovalSteps
            t={t}
            steps={steps}
            isRequester={isRequester}
            ended={outcome === null ? undefined : outcome === 'approved' ? 'approved' : 'otherwise'}
          />
        )}
        {showButtons && !canAllow && !othersDecideIt && (
          <p className="text-xs text-muted-foreground" data-testid="others-decide">
            {t.othersDecide}
          </p>
        )}
        {card.view?.status === 'withdrawn' && (
          <p className="text-xs font-medium" data-testid="withdrawn">
            {t.withdrawnByRequester}
          </p>
        )}
        {decidedBy !== undefined && (
          <p className="text-xs font-medium" data-testid="decided-by">
            {denial !== null
              ? t.deniedByMaker(makerText(decidedBy, locale))
              : t.approvedByMaker(makerText(decidedBy, locale))}
          </p>
        )}
        {editedBy !== undefined && editedInput !== undefined && (
          <p className="text-xs" data-testid="edited-by">
            {t.editedByMaker(makerText(editedBy, locale), changesOf(part.input, editedInput))}
          </p>
        )}
        {card.view !== undefined && (
          <ApprovalQuestions view={card.view} locale={locale} mayAsk={showButtons && outcome === null} />
        )}
        {waiting && outcome === null && (
          <ApprovalProvenance
            part={part}
            view={card.view}
            t={t}
            locale={locale}
            labels={meta?.toolFieldLabels?.[toolName]}
          />
        )}
        {waiting && outcome === null && (
          <ApprovalPreview part={part} view={card.view} locale={locale} title={t.previewTitle} />
        )}
        {showButtons && mode === 'edit' && inputSchema !== undefined ? (
          <ApprovalEditForm
            schema={inputSchema}
            labels={meta?.toolFieldLabels?.[toolName]}
            input={card.input}
            fieldErrors={fieldErrors}
            sending={decision.kind === 'sending'}
            onSubmit={(input) => void decide(true, { input })}
            onCancel={card.cancelEdit}
          />
        ) : (
          card.input !== undefined && (
            <Fold label={t.arguments} open={false}>
              <pre className="overflow-x-auto rounded-md bg-muted p-2 font-mono text-xs">
                {prettyJson(card.input)}
              </pre>
            </Fold>
          )
        )}
        {replayed && (
          <p className="text-xs text-muted-foreground" data-testid="replayed-note">
            {t.replayedExplain}
          </p>
        )}
        <ToolBody part={part} denial={denial} />
        <UndoControl part={part} chatId={chatId} />
        {deniedNote !== undefined && (
          <Section label={decidedBy !== undefined ? t.theirNote : t.yourNote}>
            <p className="text-xs" data-testid="denial-note">
              {revealHiddenCharacters(deniedNote)}
            </p>
          </Section>
        )}
        {showButtons && mode === 'grant' && (
          <StandingGrantForm
            toolCallId={part.toolCallId}
            input={part.input}
            disabled={decision.kind === 'sending'}
            onSubmit={(remember) => void decide(true, { remember })}
            onCancel={() => setMode('buttons')}
          />
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
        {card.policyChanged !== undefined && (
          <p
            role={card.policyChanged === 'not-yours' ? 'alert' : undefined}
            className="text-xs text-muted-foreground"
            data-testid="policy-changed"
            data-policy-changed={card.policyChanged}
          >
            {card.policyChanged === 'denied'
              ? t.policyChangedDenied
              : card.policyChanged === 'not-yours'
                ? t.policyChangedNotYours
                : t.policyChangedSteps}
          </p>
        )}
        {card.stale && showButtons && (
          <p role="alert" className="text-xs text-destructive" data-testid="stale-input">
            {t.approvalStale}
          </p>
        )}
        {card.refusal !== undefined && showButtons && (
          <p role="alert" className="text-xs text-destructive" data-testid="decision-refused">
            {card.refusal.code === undefined
              ? card.refusal.error
              : t.decisionRefusals[card.refusal.code](card.refusal.params ?? {})}
          </p>
        )}
        {decision.kind === 'failed' && (
          <p role="alert" className="text-xs text-destructive">
            {t.approvalFailed}
          </p>
        )}
      </CardContent>
      {showButtons && (
        <CardFooter className="flex-col items-stretch gap-2">
          <div className="flex flex-wrap items-center gap-2">
            {secondsLeft !== null && !othersDecideIt && (
              <span
                role="timer"
                aria-live="off"
                className="mr-auto text-xs tabular-nums text-muted-foreground"
              >
                <Clock className="mr-1 inline size-3" aria-hidden="true" />
                {t.autoDenyIn(secondsLeft * 1000)}
              </span>
            )}
            {mode === 'buttons' && isRequester && !othersDecideIt && (
              <Button
                variant="ghost"
                size="sm"
                aria-expanded={more}
                data-testid="more-actions"
                onClick={() => setMore((open) => !open)}
              >
                {t.moreActions}
              </Button>
            )}
            {mode === 'buttons' && (
              <Button
                variant="outline"
                size="sm"
                className={othersDecideIt ? 'ml-auto' : undefined}
                disabled={decision.kind === 'sending'}
                onClick={() => decide(false)}
              >
                {decision.kind === 'sending' && !decision.approved && (
                  <LoaderCircle className="animate-spin" />
                )}
                {t.deny}
              </Button>
            )}
            {mode === 'buttons' && canAllow && (
              <Button size="sm" disabled={decision.kind === 'sending'} onClick={() => decide(true)}>
                {decision.kind === 'sending' && decision.approved && (
                  <LoaderCircle className="animate-spin" />
                )}
                {t.allow}
              </Button>
            )}
          </div>
          {/* The requester's own card keeps the rest behind More; an approver's shows it (d opens the note). */}
          {mode === 'buttons' && (more || !isRequester) && (
            <div className="flex flex-wrap justify-end gap-2" data-testid="more-actions-row">
              {isRequester && shortWait && (
                <Button
                  variant="ghost"
                  size="sm"
                  aria-label={t.moreTimeLabel(maxExtensions - extensionsUsed)}
                  disabled={extensionsUsed >= maxExtensions || decision.kind === 'sending'}
                  onClick={() => void extendDeadline()}
                >
                  {t.moreTime}
                </Button>
              )}
              {canAllow && canEditInput(inputSchema) && (
                <Button
                  variant="ghost"
                  size="sm"
                  disabled={decision.kind === 'sending'}
                  onClick={() => setMode('edit')}
                >
                  {t.edit}
                </Button>
              )}
              <Button
                variant="ghost"
                size="sm"
                disabled={decision.kind === 'sending'}
                onClick={() => setMode('denyNote')}
              >
                {t.denyWithNote}
              </Button>
              {mayRemember && (
                <Button
                  variant="outline"
                  size="sm"
                  disabled={decision.kind === 'sending'}
                  onClick={() => decide(true, { remember: 'chat' })}
                >
                  {t.allowForChat}
                </Button>
              )}
              {mayRemember && isRequester && (
                <Button
                  variant="outline"
                  size="sm"
                  disabled={decision.kind === 'sending'}
                  onClick={() => setMode('grant')}
                >
                  {t.allowSimilar}
                </Button>
              )}
            </div>
          )}
        </CardFooter>
      )}
    </Card>
  );
}

/** "amount: 150 → 120": the fields an edit changed, as the card says them. */
function changesOf(before: unknown, after: unknown): string {
  if (typeof before !== 'object' || before === null || typeof after !== 'object' || after === null) return '';
  const was = before as Record<string, unknown>;
  const now = after as Record<string, unknown>;
  return Object.keys(now)
    .filter((key) => JSON.stringify(was[key]) !== JSON.stringify(now[key]))
    .map((key) => `${key}: ${String(was[key] ?? '—')} → ${String(now[key])}`)
    .join(', ');
}
