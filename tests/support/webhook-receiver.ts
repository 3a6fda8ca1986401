import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One POST as the receiver got it: headers and the raw body. */
export type ReceivedWebhook = { headers: IncomingHttpHeaders; body: string };

/** How the receiver answers a request: a status (and body), or never (the connection stays open). */
export type WebhookAnswer = number | { status: number; body: string } | 'never';

/**
 * A local HTTP receiver for webhook tests: it keeps every request and answers each as
 * `answer` says, given the request and how many requests of that event id came before it.
 */
export class WebhookReceiver {
  readonly received: ReceivedWebhook[] = [];
  url = '';
  private readonly hanging = new Set<ServerResponse>();
  private readonly server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const webhook = { headers: request.headers, body: Buffer.concat(chunks).toString('utf8') };
      const earlier = this.forEvent(String(request.headers['x-toolgate-event-id'])).length;
      this.received.push(webhook);
      const answer = this.answer(webhook, earlier);
      if (answer === 'never') {
        this.hanging.add(response);
        return;
      }
      const { status, body } =
        typeof answer === 'number'
          ? { status: answer, body: answer >= 300 ? `receiver says ${answer}` : 'ok' }
          : answer;
      response.writeHead(status, {
        'content-type': 'text/plain',
        ...(status >= 300 && status < 400 && { location: this.url }),
      });
      response.end(body);
    });
  });

  constructor(private readonly answer: (webhook: ReceivedWebhook, earlier: number) => WebhookAnswer) {}

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hooks/toolgate`;
    return this;
  }

  /** The requests that carried this event id, in order. */
  forEvent(eventId: string): ReceivedWebhook[] {
    return this.received.filter((webhook) => webhook.headers['x-toolgate-event-id'] === eventId);
  }

  async stop(): Promise<void> {
    for (const response of this.hanging) response.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
