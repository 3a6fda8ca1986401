import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { POST as revokeRole } from '@/app/api/admin/roles/revoke/route';
import { GET as readApproval } from '@/app/api/approvals/[approvalId]/route';
import { GET as listTickets } from '@/app/api/tickets/route';
import { getDb } from '@/lib/db';
import { signUpWithRole, writePolicyFile } from '../support/approval-policy';
import { askForApproval, decideAs, openApprovalEvents } from '../support/approval-requests';
import { callAuth, signIn } from '../support/auth-client';
import { defaultTestCookie, getRequest, jsonRequest } from '../support/chat-client';
import { countQueries } from '../support/count-queries';
import { eventStreamReader } from '../support/event-stream-reader';
import { configureServer, signInGuest } from '../support/server-env';

const password = 'a long unusual passphrase for tests';

/** Opens `/api/approvals/events?<query>` as `cookie`; `close()` is the browser leaving. */
async function follow(query: string, cookie: string | undefined) {
  const { response, controller } = await openApprovalEvents(query, cookie);
  const events = response.status === 200 ? eventStreamReader(response) : undefined;
  return {
    response,
    events,
    close: async () => {
      controller.abort();
      await events?.cancel();
    },
  };
}

/** A decision's answer body. */
async function decide(approvalId: string, cookie: string | undefined, approved: boolean) {
  return (await decideAs(approvalId, cookie, approved)).body as { status?: string };
}

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

describe('approval event streams', () => {
  let admin: { cookie: string; id: string };
  let supervisor: { cookie: string; id: string };
  // Only a signed-in, verified user may ask a supervisor.
  let requester: { cookie: string; id: string };

  beforeAll(async () => {
    await configureServer({
      TOOLGATE_POLICY: writePolicyFile(),
      TOOLGATE_PARK_AFTER_MS: '50',
      TOOLGATE_ADMIN_EMAILS: 'streams-admin@example.com',
    });
    admin = await signUpWithRole('streams-admin@example.com');
    supervisor = await signUpWithRole('streams-sup@example.com', 'supervisor');
    requester = await signUpWithRole('streams-requester@example.com');
  });

  it('answers an inbox stream for a guest or a user without a role as an unknown resource; own calls stay open to all', async () => {
    const guest = await signInGuest();
    const plain = await signUpWithRole('streams-plain@example.com');
    for (const cookie of [guest, plain.cookie]) {
      const inbox = await follow('inbox=1', cookie);
      expect(inbox.response.status).toBe(404);
      expect(await inbox.response.json()).toEqual({ error: expect.any(String) });
    }
    const approver = await follow('inbox=1', supervisor.cookie);
    expect(approver.response.status).toBe(200);
    await approver.events?.until(': listening');

    // The requester's card still follows its own calls, as a guest.
    const { approvalId, reader } = await askForApproval('streams-own', 'create a ticket: printer', guest);
    const ownChat = await follow('chatId=streams-own', guest);
    const ownCall = await follow(`approvalId=${approvalId}`, guest);
    expect([ownChat.response.status, ownCall.response.status]).toEqual([200, 200]);
    await ownCall.events?.until(': listening');
    expect(await decide(approvalId, guest, false)).toMatchObject({ status: 'denied' });
    await ownChat.events?.until(`"approvalId":"${approvalId}"`);
    await ownCall.events?.until(`"approvalId":"${approvalId}"`);
    await reader.rest();
    // What the page is told names the approval, never who may see it.
    expect(ownChat.events?.text()).toContain(
      `{"type":"changed","approvalId":"${approvalId}","chatId":"streams-own"}`,
    );
    expect(ownChat.events?.text()).not.toContain('ownerId');
    for (const stream of [approver, ownChat, ownCall]) await stream.close();
  });

  it('does the same database work per approval event with 200 streams open by people who cannot see it as with none', async () => {
    const db = await getDb();
    // Twelve holders of a role no step names, each at the cap of 16 streams, and 8 more: 200.
    const outsiders = [];
    for (let index = 0; index < 13; index += 1) {
      outsiders.push(await signUpWithRole(`streams-auditor-${index}@example.com`, 'auditor'));
    }
    const reader = await signUpWithRole('streams-reader@example.com');
    const timedTickets = async () => {
      const started = performance.now();
      const response = await listTickets(getRequest('/api/tickets', { cookie: reader.cookie }));
      expect(response.status).toBe(200);
      return performance.now() - started;
    };
    /** Runs `cycles` request-and-deny cycles; returns the queries each ran and the ticket list's latency after it. */
    const measure = async (label: string, cycles: number) => {
      const counter = countQueries(db);
      const queries: number[] = [];
      const latencies: number[] = [];
      try {
        for (let cycle = 0; cycle < cycles; cycle += 1) {
          const before = counter.count();
          const { approvalId, reader: turn } = await askForApproval(
            `streams-load-${label}-${cycle}`,
            'create a ticket: printer',
          );
          expect(await decide(approvalId, defaultTestCookie(), false)).toMatchObject({ status: 'denied' });
          // Right after the decision, while its events are being handled.
          latencies.push(await timedTickets());
          await turn.rest();
          // Whatever the events set off has run once the count stops moving.
          let last = -1;
          for (let wait = 0; wait < 50 && counter.count() !== last; wait += 1) {
            last = counter.count();
            await new Promise((resolve) => setTimeout(resolve, 60));
          }
          queries.push(counter.count() - before);
        }
      } finally {
        counter.stop();
      }
      return { queries, latencies };
    };

    await timedTickets(); // Warm the route.
    const alone = await measure('alone', 4);
    const streams = [];
    for (let index = 0; index < 200; index += 1) {
      const stream = await follow('inbox=1', outsiders[Math.floor(index / 16)]?.cookie);
      expect(stream.response.status).toBe(200);
      streams.push(stream);
    }
    await Promise.all(streams.map((stream) => stream.events?.until(': listening')));
    const crowded = await measure('crowded', 4);
    for (const stream of streams) expect(stream.events?.text()).not.toContain('data:');
    await Promise.all(streams.map((stream) => stream.close()));

    console.info(
      `queries per request-and-deny cycle: ${alone.queries} with no stream, ${crowded.queries} with 200; ` +
        `ticket list ms: ${alone.latencies.map(Math.round)} vs ${crowded.latencies.map(Math.round)}`,
    );
    // The same reads per cycle (a few of slack for timers that run now and then).
    expect(median(crowded.queries)).toBeLessThanOrEqual(median(alone.queries) + 3);
    expect(median(crowded.latencies)).toBeLessThan(median(alone.latencies) * 5 + 100);
  }, 60_000);

  it('ends an approver’s open streams when an admin revokes their role: no further approval ids', async () => {
    const approver = await signUpWithRole('streams-revoked@example.com', 'supervisor');
    const { approvalId: seen } = await askForApproval(
      'streams-revoke-1',
      'create a ticket: small refund',
      requester.cookie,
    );
    const inbox = await follow('inbox=1', approver.cookie);
    const page = await follow(`approvalId=${seen}`, approver.cookie);
    expect([inbox.response.status, page.response.status]).toEqual([200, 200]);
    await inbox.events?.until(': listening');
    await page.events?.until(': listening');

    const revoked = await revokeRole(
      jsonRequest(
        '/api/admin/roles/revoke',
        { userId: approver.id, role: 'supervisor' },
        { cookie: admin.cookie },
      ),
    );
    expect(revoked.status).toBe(200);
    const { approvalId: later } = await askForApproval(
      'streams-revoke-2',
      'create a ticket: small refund',
      requester.cookie,
    );
    const carried = [await inbox.events?.end(), await page.events?.end()].join('');
    expect(carried).not.toContain(later);
    // Reconnecting, the browser finds no inbox any more.
    expect((await follow('inbox=1', approver.cookie)).response.status).toBe(404);
    expect((await follow(`approvalId=${seen}`, approver.cookie)).response.status).toBe(404);
  });

  it('ends a banned user’s open streams', async () => {
    const banned = await signUpWithRole('streams-banned@example.com', 'supervisor');
    const inbox = await follow('inbox=1', banned.cookie);
    await inbox.events?.until(': listening');
    const answer = await callAuth('/admin/ban-user', { userId: banned.id }, { cookie: admin.cookie });
    expect(answer.status).toBe(200);
    const { approvalId } = await askForApproval(
      'streams-ban',
      'create a ticket: small refund',
      requester.cookie,
    );
    expect(await inbox.events?.end()).not.toContain(approvalId);
  });

  it('ends the streams of a signed-out session, and only of that one', async () => {
    const leaver = await signUpWithRole('streams-leaver@example.com', 'supervisor');
    const { cookie: otherDevice } = await signIn('streams-leaver@example.com', password);
    const leaving = await follow('inbox=1', leaver.cookie);
    const staying = await follow('inbox=1', otherDevice);
    await leaving.events?.until(': listening');
    await staying.events?.until(': listening');

    expect((await callAuth('/sign-out', {}, { cookie: leaver.cookie })).status).toBe(200);
    const { approvalId } = await askForApproval(
      'streams-sign-out',
      'create a ticket: small refund',
      requester.cookie,
    );
    await staying.events?.until(`"approvalId":"${approvalId}"`);
    expect(await leaving.events?.end()).not.toContain(approvalId);
    await staying.close();
  });
});

/** Resolves with what `promise` gives, or rejects once `ms` have passed. */
function within<T>(ms: number, promise: Promise<T> | undefined, what: string): Promise<T> {
  return Promise.race([
    promise ?? Promise.reject(new Error(`${what}: no stream`)),
    new Promise<never>((_, reject) =>
      setTimeout(() => reject(new Error(`${what}: still open after ${ms} ms`)), ms),
    ),
  ]);
}

describe('approval event streams have a bounded life', () => {
  const lifeMs = 1500;
  let supervisor: { cookie: string; id: string };
  let requester: { cookie: string; id: string };

  beforeAll(async () => {
    await configureServer({
      TOOLGATE_POLICY: writePolicyFile(),
      TOOLGATE_PARK_AFTER_MS: '50',
      TOOLGATE_EVENT_STREAM_LIFE_MS: String(lifeMs),
    });
    supervisor = await signUpWithRole('life-sup@example.com', 'supervisor');
    requester = await signUpWithRole('life-requester@example.com');
  });

  it('ends a chat’s, an approval page’s and the inbox’s stream after its life; reconnected, the page still learns of every decision', async () => {
    const second = await signUpWithRole('life-sup2@example.com', 'supervisor');
    // Two supervisors must allow it: one decides while no stream is open, the other after the reconnect.
    const { approvalId } = await askForApproval('life-chat', 'create a ticket: big refund', requester.cookie);
    const opened = Date.now();
    const streams = [
      await follow('chatId=life-chat', requester.cookie),
      await follow(`approvalId=${approvalId}`, requester.cookie),
      await follow('inbox=1', supervisor.cookie),
    ];
    expect(streams.map((stream) => stream.response.status)).toEqual([200, 200, 200]);
    await Promise.all(streams.map((stream) => within(15_000, stream.events?.end(), 'a stream')));
    expect(Date.now() - opened).toBeGreaterThanOrEqual(lifeMs - 100);

    // A decision while no stream is open reaches nobody; the page reads the state when it reconnects.
    expect(await decide(approvalId, supervisor.cookie, true)).toEqual({ status: 'waiting' });
    const chat = await follow('chatId=life-chat', requester.cookie);
    expect(chat.response.status).toBe(200);
    await chat.events?.until(': listening');
    const view = await readApproval(
      getRequest(`/api/approvals/${approvalId}`, { cookie: requester.cookie }),
      {
        params: Promise.resolve({ approvalId }),
      },
    );
    const { steps } = (await view.json()) as { steps: { decision?: string }[] };
    expect(steps.map((step) => step.decision)).toEqual(['allow', undefined]);
    // A decision after the reconnect arrives on the new stream.
    expect(await decide(approvalId, second.cookie, true)).toMatchObject({ status: 'approved' });
    await within(10_000, chat.events?.until(`"approvalId":"${approvalId}"`), 'the decision');
    await chat.close();
  });

  it('lets a session that expired keep no stream: it ends, and reopening it is refused with 401', async () => {
    const owner = await signUpWithRole('life-expiring@example.com', 'supervisor');
    await askForApproval('life-expiring', 'create a ticket: printer', owner.cookie);
    const chat = await follow('chatId=life-expiring', owner.cookie);
    const inbox = await follow('inbox=1', owner.cookie);
    expect([chat.response.status, inbox.response.status]).toEqual([200, 200]);
    await chat.events?.until(': listening');

    // The sign-in runs out: nothing is deleted, so no notice is sent.
    const db = await getDb();
    const past = new Date(Date.now() - 60_000);
    const { rows } = await sql<{
      expiresAt: unknown;
    }>`select "expiresAt" from "session" where "userId" = ${owner.id}`.execute(db);
    const stored = rows[0]?.expiresAt;
    const expired =
      typeof stored === 'number' ? past.getTime() : typeof stored === 'string' ? past.toISOString() : past;
    await sql`update "session" set "expiresAt" = ${expired} where "userId" = ${owner.id}`.execute(db);

    await within(15_000, chat.events?.end(), 'the chat stream');
    await within(15_000, inbox.events?.end(), 'the inbox stream');
    for (const query of ['chatId=life-expiring', 'inbox=1']) {
      const again = await follow(query, owner.cookie);
      expect(again.response.status).toBe(401);
    }
  });
});
