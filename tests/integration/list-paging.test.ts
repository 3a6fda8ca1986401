import { beforeEach, describe, expect, it } from 'vitest';
import { GET as tickets } from '@/app/api/tickets/route';
import { GET as todos } from '@/app/api/todos/route';
import { getDb, insertTicket, insertTodo } from '@/lib/db';
import { signUpWithRole } from '../support/approval-policy';
import { getRequest } from '../support/chat-client';
import { configureServerOn } from '../support/server-env';
import { databaseEngines } from '../support/test-database';

describe.each(databaseEngines)('GET /api/tickets and /api/todos, page by page, on %s', (engine) => {
  let person: { cookie: string; id: string };

  beforeEach(async () => {
    await configureServerOn(engine);
    person = await signUpWithRole(`pages-${engine}@example.com`);
  });

  it('answers the newest 100 to-dos with a link to the next page, which holds the older ones', async () => {
    const db = await getDb();
    for (let index = 1; index <= 105; index += 1)
      await insertTodo(db, { title: `todo ${index}`, userId: person.id });
    const first = await todos(getRequest('/api/todos', { cookie: person.cookie }));
    const firstRows = (await first.json()) as { title: string }[];
    expect(firstRows).toHaveLength(100);
    expect(firstRows[0]?.title).toBe('todo 105');
    const next = /<([^>]+)>; rel="next"/.exec(first.headers.get('link') ?? '')?.[1];
    expect(next).toBeDefined();
    const second = await todos(getRequest(next as string, { cookie: person.cookie }));
    expect(((await second.json()) as { title: string }[]).map((row) => row.title)).toEqual([
      'todo 5',
      'todo 4',
      'todo 3',
      'todo 2',
      'todo 1',
    ]);
    expect(second.headers.get('link')).toBeNull();
  });

  it('pages tickets with a smaller limit, and refuses a cursor it did not give', async () => {
    const db = await getDb();
    for (let index = 1; index <= 3; index += 1)
      await insertTicket(db, { title: `ticket ${index}`, userId: person.id });
    const first = await tickets(getRequest('/api/tickets?limit=2', { cookie: person.cookie }));
    expect(((await first.json()) as { title: string }[]).map((row) => row.title)).toEqual([
      'ticket 3',
      'ticket 2',
    ]);
    const cursor = first.headers.get('x-next-cursor');
    const rest = await tickets(
      getRequest(`/api/tickets?limit=2&cursor=${cursor}`, { cookie: person.cookie }),
    );
    expect(((await rest.json()) as { title: string }[]).map((row) => row.title)).toEqual(['ticket 1']);

    const forged = await tickets(getRequest('/api/tickets?cursor=abc', { cookie: person.cookie }));
    expect(forged.status).toBe(400);
    expect(await forged.json()).toEqual({ error: expect.stringContaining('cursor') });
    expect((await tickets(getRequest('/api/tickets?limit=0', { cookie: person.cookie }))).status).toBe(400);
  });
});
