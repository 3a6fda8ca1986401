import { ArrowUp, Square } from 'lucide-react';
import { type FormEvent, type KeyboardEvent, useState } from 'react';
import { Button } from './ui/button';
import { Textarea } from './ui/textarea';
import { useWorkspace } from './workspace-provider';

/**
 * The message box, never dead: Enter sends and Shift+Enter starts a new line, also while the
 * agent answers or a card waits (the server decides what a new message does to it). While
 * the agent answers, Stop sits beside Send; `hint` says what typing now will do.
 */
export function Composer({
  busy,
  onSend,
  onStop,
  hint,
}: {
  busy: boolean;
  onSend: (text: string) => void;
  onStop: () => void;
  /** Said under the box (e.g. what a message does to a waiting card). */
  hint?: string;
}) {
  const { t } = useWorkspace();
  const [text, setText] = useState('');

  function submit(event?: FormEvent) {
    event?.preventDefault();
    const trimmed = text.trim();
    if (trimmed === '') return;
    onSend(trimmed);
    setText('');
  }

  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    // isComposing: Enter that confirms a Chinese/Japanese IME candidate must not send the message.
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      submit();
    }
  }

  return (
    <form onSubmit={submit} className="flex flex-col gap-1">
      <div className="flex items-end gap-2">
        <Textarea
          data-composer
          aria-label={t.messageLabel}
          placeholder={t.messagePlaceholder}
          value={text}
          onChange={(event) => setText(event.target.value)}
          onKeyDown={onKeyDown}
          rows={2}
        />
        {busy && (
          <Button type="button" size="icon" variant="outline" aria-label={t.stop} onClick={onStop}>
            <Square />
          </Button>
        )}
        <Button type="submit" size="icon" aria-label={t.send} disabled={text.trim() === ''}>
          <ArrowUp />
        </Button>
      </div>
      {hint !== undefined && (
        <p className="text-xs text-muted-foreground" data-testid="composer-hint">
          {hint}
        </p>
      )}
    </form>
  );
}
