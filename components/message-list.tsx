import type { ChatStatus } from 'ai';
import { isToolUIPart } from 'ai';
import { Bot, User } from 'lucide-react';
import { Fragment } from 'react';
import type { ToolgateMessage } from './api-types';
import { ModelMarkdown } from './model-markdown';
import { ToolCard } from './tool-card';
import { Badge } from './ui/badge';
import { cn } from './ui/cn';
import { useWorkspace } from './workspace-provider';

/** The conversation: user turns as plain text, agent turns as streaming markdown and tool cards. */
export function MessageList({
  chatId,
  messages,
  status,
  onDecided,
}: {
  chatId: string;
  messages: ToolgateMessage[];
  status: ChatStatus;
  onDecided: (event: { parked: boolean; remembered?: boolean }) => void;
}) {
  const { t } = useWorkspace();
  return (
    <ol aria-label={t.messages} className="flex flex-col gap-6">
      {messages.map((message, index) => {
        const isUser = message.role === 'user';
        const streaming = status === 'streaming' && index === messages.length - 1;
        return (
          <li
            key={message.id}
            data-testid={`message-${message.role}`}
            aria-label={isUser ? t.you : t.agent}
            className={cn('flex gap-3', isUser && 'flex-row-reverse')}
          >
            <div
              aria-hidden="true"
              className="mt-0.5 flex size-7 shrink-0 items-center justify-center rounded-full border border-border bg-muted"
            >
              {isUser ? <User className="size-4" /> : <Bot className="size-4" />}
            </div>
            <div className={cn('flex min-w-0 flex-col gap-1', isUser ? 'items-end' : 'w-full items-start')}>
              {!isUser && (message.metadata?.worker || message.metadata?.model) && (
                <div className="flex flex-wrap gap-1" data-testid="message-metadata">
                  {message.metadata?.worker && (
                    <Badge variant="outline">
                      {t.handledBy}: {t.workerNames[message.metadata.worker] ?? message.metadata.worker} (
                      {message.metadata.worker})
                    </Badge>
                  )}
                  {message.metadata?.model && (
                    <Badge variant="secondary">
                      {t.model}: {message.metadata.model}
                    </Badge>
                  )}
                </div>
              )}
              {message.parts.map((part, partIndex) => {
                const key = `${message.id}-${partIndex}`;
                if (part.type === 'text') {
                  if (isUser) {
                    return (
                      <p
                        key={key}
                        className="max-w-prose whitespace-pre-wrap rounded-lg bg-primary px-3 py-2 text-sm text-primary-foreground"
                      >
                        {part.text}
                      </p>
                    );
                  }
                  // An approver's question is a person's words: text, never markdown or links.
                  if (message.metadata?.question !== undefined) {
                    return (
                      <p
                        key={key}
                        data-testid="approver-question-note"
                        className="w-full max-w-prose whitespace-pre-wrap break-words rounded-lg border border-warning/60 px-3 py-2 text-sm"
                      >
                        {part.text}
                      </p>
                    );
                  }
                  return (
                    <div
                      key={key}
                      data-testid="assistant-text"
                      className="w-full max-w-prose text-sm leading-relaxed"
                    >
                      <ModelMarkdown isAnimating={streaming && part.state === 'streaming'}>
                        {part.text}
                      </ModelMarkdown>
                    </div>
                  );
                }
                if (isToolUIPart(part)) {
                  return (
                    <ToolCard
                      key={part.toolCallId}
                      part={part}
                      live={streaming}
                      chatId={chatId}
                      onDecided={onDecided}
                    />
                  );
                }
                return <Fragment key={key} />;
              })}
            </div>
          </li>
        );
      })}
    </ol>
  );
}
