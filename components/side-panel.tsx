'use client';

import { ListTodo, Ticket as TicketIcon } from 'lucide-react';
import { type ReactNode, useEffect, useId, useState } from 'react';
import { fetchJson, type Ticket, type Todo } from './api-types';
import { Badge } from './ui/badge';
import { ScrollArea } from './ui/scroll-area';
import { useWorkspace } from './workspace-provider';

type Load<T> = { status: 'loading' } | { status: 'ready'; items: T[] } | { status: 'failed' };

// Refetches whenever `version` changes: after each turn and after each approval decision.
function useList<T>(url: string, version: number): Load<T> {
  const [state, setState] = useState<Load<T>>({ status: 'loading' });
  // biome-ignore lint/correctness/useExhaustiveDependencies: version is the refetch trigger.
  useEffect(() => {
    let cancelled = false;
    fetchJson<T[]>(url)
      .then((items) => {
        if (!cancelled) setState({ status: 'ready', items });
      })
      .catch(() => {
        if (!cancelled)
          setState((previous) => (previous.status === 'ready' ? previous : { status: 'failed' }));
      });
    return () => {
      cancelled = true;
    };
  }, [url, version]);
  return state;
}

/** Tickets and todos as they stand in the database: what the agent's write tools actually did. */
export function SidePanel() {
  const { t, dataVersion } = useWorkspace();
  const tickets = useList<Ticket>('/api/tickets', dataVersion);
  const todos = useList<Todo>('/api/todos', dataVersion);

  return (
    <aside
      aria-label={t.sidePanel}
      className="flex min-h-0 flex-1 flex-col border-l border-border bg-sidebar"
    >
      <ScrollArea className="flex-1">
        <div className="flex flex-col gap-6 p-3">
          <PanelSection
            title={t.tickets}
            icon={<TicketIcon aria-hidden="true" />}
            empty={t.noTickets}
            load={tickets}
          >
            {(ticket: Ticket) => (
              <li
                key={ticket.ticketId}
                data-testid="ticket"
                className="flex flex-col gap-1 rounded-md border border-border bg-background p-2"
              >
                <div className="flex items-center justify-between gap-2">
                  <span className="font-mono text-xs font-medium">{ticket.ticketId}</span>
                  <Badge variant="secondary">{t.ticketStatuses[ticket.status]}</Badge>
                </div>
                <span className="text-sm break-words">{ticket.title}</span>
                {ticket.orderId && <span className="text-xs text-muted-foreground">{ticket.orderId}</span>}
              </li>
            )}
          </PanelSection>
          <PanelSection title={t.todos} icon={<ListTodo aria-hidden="true" />} empty={t.noTodos} load={todos}>
            {(todo: Todo) => (
              <li
                key={todo.id}
                data-testid="todo"
                className="flex items-center justify-between gap-2 rounded-md border border-border bg-background p-2"
              >
                <span className="text-sm break-words">{todo.title}</span>
                <Badge variant="secondary">{t.todoStatuses[todo.status]}</Badge>
              </li>
            )}
          </PanelSection>
        </div>
      </ScrollArea>
    </aside>
  );
}

function PanelSection<T>({
  title,
  icon,
  empty,
  load,
  children,
}: {
  title: string;
  icon: ReactNode;
  empty: string;
  load: Load<T>;
  children: (item: T) => ReactNode;
}) {
  const { t } = useWorkspace();
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-2">
      <h2 id={headingId} className="flex items-center gap-2 text-sm font-semibold [&_svg]:size-4">
        {icon}
        {title}
        {load.status === 'ready' && (
          <Badge variant="outline" aria-hidden="true">
            {load.items.length}
          </Badge>
        )}
      </h2>
      {load.status === 'failed' && <p className="text-xs text-destructive">{t.loadFailed}</p>}
      {load.status === 'ready' && load.items.length === 0 && (
        <p className="text-xs text-muted-foreground">{empty}</p>
      )}
      {load.status === 'ready' && load.items.length > 0 && (
        <ul className="flex flex-col gap-2">{load.items.map(children)}</ul>
      )}
    </section>
  );
}
