import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One OTLP/HTTP export as it arrived: its path, content type and raw body. */
export type OtlpExport = { path: string; contentType: string; body: Buffer };

/** A span decoded from an OTLP/JSON export, its attributes flattened to plain values. */
export type ReceivedSpan = {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  attributes: Record<string, unknown>;
  events: { name: string; attributes: Record<string, unknown> }[];
  links: { traceId: string; spanId: string; attributes: Record<string, unknown> }[];
};

type JsonAttribute = { key: string; value: Record<string, unknown> };

function attributesOf(list: JsonAttribute[] | undefined): Record<string, unknown> {
  const attributes: Record<string, unknown> = {};
  for (const { key, value } of list ?? []) {
    if ('stringValue' in value) attributes[key] = value.stringValue;
    else if ('intValue' in value) attributes[key] = Number(value.intValue);
    else if ('doubleValue' in value) attributes[key] = Number(value.doubleValue);
    else if ('boolValue' in value) attributes[key] = value.boolValue;
    else attributes[key] = value;
  }
  return attributes;
}

/**
 * A local OTLP/HTTP collector for tests: it keeps every export it is sent (answering
 * 200 with an empty response, as a collector does) and decodes the JSON ones.
 */
export class OtlpReceiver {
  readonly exports: OtlpExport[] = [];
  private server?: Server;
  url = '';

  async start(): Promise<void> {
    this.server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const contentType = request.headers['content-type'] ?? '';
        this.exports.push({ path: request.url ?? '', contentType, body: Buffer.concat(chunks) });
        const json = contentType.startsWith('application/json');
        response.writeHead(200, { 'content-type': json ? 'application/json' : 'application/x-protobuf' });
        response.end(json ? '{}' : '');
      });
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.server?.close(() => resolve()) ?? resolve());
  }

  /** Every raw body received, as text (protobuf strings are UTF-8 in the bytes too). */
  rawText(): string {
    return this.exports.map((received) => received.body.toString('utf8')).join('\n');
  }

  /** Every span of the JSON exports received so far. */
  spans(): ReceivedSpan[] {
    const spans: ReceivedSpan[] = [];
    for (const received of this.exports) {
      if (!received.contentType.startsWith('application/json')) continue;
      const payload = JSON.parse(received.body.toString('utf8')) as {
        resourceSpans?: { scopeSpans?: { spans?: Record<string, unknown>[] }[] }[];
      };
      for (const resourceSpan of payload.resourceSpans ?? [])
        for (const scopeSpan of resourceSpan.scopeSpans ?? [])
          for (const span of scopeSpan.spans ?? []) {
            spans.push({
              traceId: span.traceId as string,
              spanId: span.spanId as string,
              parentSpanId: (span.parentSpanId as string | undefined) || undefined,
              name: span.name as string,
              attributes: attributesOf(span.attributes as JsonAttribute[]),
              events: ((span.events as { name: string; attributes?: JsonAttribute[] }[]) ?? []).map(
                (event) => ({
                  name: event.name,
                  attributes: attributesOf(event.attributes),
                }),
              ),
              links: (
                (span.links as { traceId: string; spanId: string; attributes?: JsonAttribute[] }[]) ?? []
              ).map((link) => ({
                traceId: link.traceId,
                spanId: link.spanId,
                attributes: attributesOf(link.attributes),
              })),
            });
          }
    }
    return spans;
  }
}
