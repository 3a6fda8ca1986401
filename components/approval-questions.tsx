import { type FormEvent, useState } from 'react';
import { askRequesterAction } from '@/app/actions/approval-decisions';
import { makerText } from '@/lib/ai/offline-decided-by';
import type { Language } from '@/lib/shared/language';
import type { ApprovalView } from './api-types';
import { askRequesterTextOf } from './ask-requester-text';
import { Section } from './tool-card-parts';
import { Button } from './ui/button';
import { Textarea } from './ui/textarea';

/** The longest question the server takes (after hidden characters are removed). */
const maxQuestionLength = 500;

/**
 * "Ask the requester" on an approval card: the questions approvers asked and the requester's
 * answers, drawn as text (people's words, never markdown or links), and for an approver who
 * may decide the call a field to ask another (Enter sends). The requester's card says how to
 * answer: their next message in the chat.
 */
export function ApprovalQuestions({
  view,
  locale,
  mayAsk,
}: {
  view: ApprovalView;
  locale: Language;
  /** The card's controls are shown (the call waits and this person may act on it). */
  mayAsk: boolean;
}) {
  const text = askRequesterTextOf(locale);
  const questions = view.questions ?? [];
  const canAsk = mayAsk && view.viewer.canAsk === true && view.status === 'pending';
  const [open, setOpen] = useState(false);
  const [question, setQuestion] = useState('');
  const [sending, setSending] = useState(false);
  const [status, setStatus] = useState<{ kind: 'sent' } | { kind: 'error'; error: string } | undefined>();
  if (questions.length === 0 && !canAsk) return null;

  async function send(event?: FormEvent) {
    event?.preventDefault();
    if (sending || question.trim() === '') return;
    setSending(true);
    const answer = await askRequesterAction(view.approvalId, { question }).catch(() => undefined);
    setSending(false);
    if (answer?.status === 201) {
      setQuestion('');
      setOpen(false);
      setStatus({ kind: 'sent' });
      return;
    }
    const error = answer !== undefined && 'error' in answer.body ? answer.body.error : text.failed;
    setStatus({ kind: 'error', error });
  }

  return (
    <Section label={text.heading}>
      <div className="flex flex-col gap-2" data-testid="approval-questions">
        {questions.length > 0 && (
          <ol className="flex flex-col gap-2">
            {questions.map((item) => (
              <li
                key={item.id}
                data-testid="approval-question"
                className="flex flex-col gap-1 rounded-md border border-border p-2"
              >
                <p className="text-xs text-muted-foreground">
                  {text.asked(makerText(item.askedBy, locale))} ·{' '}
                  <time dateTime={item.askedAt}>
                    {new Date(item.askedAt).toLocaleTimeString(locale === 'zh' ? 'zh-CN' : 'en-GB', {
                      hour: '2-digit',
                      minute: '2-digit',
                    })}
                  </time>
                </p>
                <p className="whitespace-pre-wrap break-words text-sm" data-testid="question-text">
                  {item.question}
                </p>
                {item.answer !== undefined ? (
                  <div className="border-l-2 border-primary/60 pl-2">
                    <p className="text-xs font-medium">{text.answer}</p>
                    <p className="whitespace-pre-wrap break-words text-sm" data-testid="question-answer">
                      {item.answer}
                    </p>
                  </div>
                ) : (
                  <p className="text-xs text-muted-foreground" data-testid="question-unanswered">
                    {view.viewer.isRequester ? text.howToAnswer : text.noAnswerYet}
                  </p>
                )}
              </li>
            ))}
          </ol>
        )}
        {canAsk && !open && (
          <Button
            variant="ghost"
            size="sm"
            className="self-start"
            data-testid="ask-requester"
            onClick={() => {
              setOpen(true);
              setStatus(undefined);
            }}
          >
            {text.ask}
          </Button>
        )}
        {canAsk && open && (
          <form className="flex flex-col gap-1" data-ask-form="" onSubmit={(event) => void send(event)}>
            <label htmlFor={`ask-${view.approvalId}`} className="text-xs font-medium">
              {text.label}
            </label>
            <Textarea
              id={`ask-${view.approvalId}`}
              data-testid="ask-question-field"
              maxLength={maxQuestionLength}
              placeholder={text.placeholder}
              aria-description={text.hint}
              value={question}
              onChange={(event) => setQuestion(event.target.value)}
              onKeyDown={(event) => {
                // Enter sends (as the reason of a denial does); Shift+Enter starts a new line.
                if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
                  event.preventDefault();
                  void send();
                }
              }}
            />
            <p className="text-xs text-muted-foreground">{text.hint}</p>
            <div className="flex justify-end gap-2">
              <Button type="button" variant="ghost" size="sm" onClick={() => setOpen(false)}>
                {text.cancel}
              </Button>
              <Button type="submit" variant="outline" size="sm" disabled={sending || question.trim() === ''}>
                {text.send}
              </Button>
            </div>
          </form>
        )}
        {status?.kind === 'sent' && (
          <p role="status" className="text-xs text-muted-foreground" data-testid="question-sent">
            {text.sent}
          </p>
        )}
        {status?.kind === 'error' && (
          <p role="alert" className="text-xs text-destructive" data-testid="question-refused">
            {status.error}
          </p>
        )}
      </div>
    </Section>
  );
}

/** The compact list's mark for an item with questions: one still open ("?"), or the last one answered ("↩"). */
export function QuestionMark({ view, locale }: { view: ApprovalView; locale: Language }) {
  const last = view.questions?.at(-1);
  if (last === undefined) return null;
  const text = askRequesterTextOf(locale);
  const answered = (view.questions ?? []).every((question) => question.answer !== undefined);
  const label = answered ? text.answeredMark : text.openMark;
  return (
    <span
      title={label}
      data-testid="inbox-row-question"
      data-answered={answered ? 'true' : 'false'}
      className="mr-1 inline-block rounded border border-border px-1 font-mono"
    >
      <span aria-hidden="true">{answered ? '↩' : '?'}</span>
      <span className="sr-only">{label}</span>
    </span>
  );
}
