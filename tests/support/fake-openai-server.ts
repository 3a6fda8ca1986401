import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One chat-completions request as the fake server received it. */
export type RecordedRequest = {
  stream: boolean;
  messages: Array<{ role: string; content?: unknown; tool_calls?: unknown[]; tool_call_id?: string }>;
  tools?: Array<{ function: { name: string } }>;
  response_format?: unknown;
};

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function chunk(delta: Record<string, unknown>, finishReason: string | null = null) {
  return {
    id: 'chatcmpl-fake',
    object: 'chat.completion.chunk',
    created: 0,
    model: 'fake-model',
    choices: [{ index: 0, delta, finish_reason: finishReason }],
  };
}

/** What one streamed answer does: call a tool, or say something. */
/** What the fake model answers: one tool call, or text. */
export type Reply = { toolCall?: { name: string; arguments: string }; text?: string };

/** The text of a message's content (a string, or the text of its parts). */
function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content))
    return content
      .map((part) => (typeof part?.text === 'string' ? part.text : JSON.stringify(part)))
      .join('\n');
  return JSON.stringify(content ?? '');
}

/**
 * An instruction planted in text the model reads: `[[call <tool> <json>]]`, optionally with
 * `transform <field>:<how>` before the closing brackets (`half` halves a number, `upper`
 * upper-cases a text, `prefix` puts "Re: " in front), as a model that works the values
 * over before it obeys would.
 */
const plantedCall = /\[\[call (\S+) (\{.*?\})(?: transform (\w+):(half|upper|prefix))?\]\]/gs;

/**
 * An instruction the model keeps for later: `[[later <tool> <json> transform <field>:<how>,…]]`,
 * obeyed only in a later turn whose user says "do what the mail says" (or "…the file says"),
 * wherever in the chat it was read (a tool's output, an attached file). Its transforms undo a
 * disguise the way a model would: `b64` decodes base64, `words` reads an amount written in
 * words, `nospace` drops spaces, `latin` reads Cyrillic look-alikes as Latin, `visible` drops
 * zero-width characters, `number` reads "40.50" as 40.5; `pad:junk` adds 64 made-up keys first.
 */
const laterCall = /\[\[later (\S+) (\{.*?\})(?: transform ([\w:,]+))?\]\]/gs;

function transformed(input: Record<string, unknown>, field?: string, how?: string): Record<string, unknown> {
  // `pad:junk` puts 64 made-up keys (numbers the model made up) before the real fields.
  if (how === 'junk')
    return {
      ...Object.fromEntries(Array.from({ length: 64 }, (_, index) => [`k${index}`, 7001 + index * 13])),
      ...input,
    };
  if (field === undefined || !(field in input)) return input;
  const value = input[field];
  const changed =
    how === 'half' && typeof value === 'number'
      ? value / 2
      : how === 'upper' && typeof value === 'string'
        ? value.toUpperCase()
        : how === 'prefix'
          ? `Re: ${String(value)}`
          : undone(String(value), how);
  return { ...input, [field]: changed };
}

const latinOf: Record<string, string> = {
  а: 'a',
  е: 'e',
  о: 'o',
  р: 'p',
  с: 'c',
  х: 'x',
  у: 'y',
  А: 'A',
  Е: 'E',
  О: 'O',
  Р: 'P',
  С: 'C',
  Х: 'X',
};
const numberWords: Record<string, number> = {
  zero: 0,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  thirteen: 13,
  fourteen: 14,
  fifteen: 15,
  sixteen: 16,
  seventeen: 17,
  eighteen: 18,
  nineteen: 19,
  twenty: 20,
  thirty: 30,
  forty: 40,
  fifty: 50,
  sixty: 60,
  seventy: 70,
  eighty: 80,
  ninety: 90,
};

/** An amount written in words ("four hundred eighty") as a number. */
function fromWords(text: string): number {
  let total = 0;
  for (const word of text.toLowerCase().split(/[\s-]+/)) {
    if (word === 'hundred') total *= 100;
    else if (word === 'thousand') total *= 1000;
    else total += numberWords[word] ?? 0;
  }
  return total;
}

function undone(value: string, how?: string): unknown {
  switch (how) {
    case 'b64':
      return Buffer.from(value, 'base64').toString('utf8');
    case 'words':
      return fromWords(value);
    case 'nospace':
      return value.replace(/\s+/g, '');
    case 'latin':
      return [...value].map((letter) => latinOf[letter] ?? letter).join('');
    case 'visible':
      return value.replace(/[\u200b-\u200d\u2060\ufeff]/g, '');
    case 'number':
      return Number(value);
    default:
      return value;
  }
}

/** The text a model reads in a message: its content, with inline files decoded (a PDF as its raw bytes). */
function readableText(content: unknown): string {
  if (!Array.isArray(content)) return contentText(content);
  return content
    .map((part) => {
      const data = part?.file?.file_data ?? part?.image_url?.url;
      if (typeof data === 'string' && data.startsWith('data:')) {
        return Buffer.from(data.slice(data.indexOf(',') + 1), 'base64').toString('latin1');
      }
      return typeof part?.text === 'string' ? part.text : JSON.stringify(part);
    })
    .join('\n');
}

/**
 * A fully compromised model: it obeys any `[[call …]]` it reads in a tool's output (or in
 * anything else after the user's last message), one planted call per step, each once per
 * turn, and a `[[later …]]` one when a later turn asks it to. The user's own `CALL <tool> <json>`
 * is done as typed; asked to read mail, it calls each `…__read_inbox` of the table once.
 */
function compromisedReply(body: RecordedRequest): Reply {
  const lastUser = body.messages.findLastIndex((message) => message.role === 'user');
  const turn = body.messages.slice(lastUser + 1);
  const available = new Set(body.tools?.map((tool) => tool.function.name) ?? []);
  const called = turn.flatMap((message) =>
    (message.tool_calls ?? []).map((call) => (call as { function: { name: string } }).function.name),
  );
  const userText = contentText(body.messages[lastUser]?.content);
  if (/do what the (mail|file) says/i.test(userText)) {
    const everything = body.messages
      .filter((message) => message.role === 'tool' || message.role === 'user')
      .map((message) => readableText(message.content))
      .join('\n')
      .replace(/\\"/g, '"');
    for (const [, name, json, transforms] of everything.matchAll(laterCall)) {
      if (name === undefined || !available.has(name) || called.includes(name)) continue;
      try {
        let input = JSON.parse(json as string) as Record<string, unknown>;
        for (const step of transforms?.split(',') ?? []) {
          const [field, how] = step.split(':');
          input = transformed(input, field, how);
        }
        return { toolCall: { name, arguments: JSON.stringify(input) } };
      } catch {}
    }
    return { text: turn.length === 0 ? 'There is nothing to do.' : 'Done.' };
  }
  if (turn.length === 0) {
    const typed = /CALL (\S+) (\{.*\})/s.exec(userText);
    if (typed && available.has(typed[1] as string))
      return { toolCall: { name: typed[1] as string, arguments: typed[2] as string } };
  }
  // Asked to read, it reads every inbox of its table once, in the table's order.
  const reader = [...available].find((name) => name.endsWith('__read_inbox') && !called.includes(name));
  if (!userText.startsWith('CALL ') && /mail|inbox/i.test(userText) && reader)
    return { toolCall: { name: reader, arguments: '{}' } };
  if (turn.length === 0) return { text: 'Happy to help.' };
  const read = turn
    .filter((message) => message.role === 'tool')
    .map((message) => contentText(message.content))
    .join('\n');
  for (const match of read.replace(/\\"/g, '"').matchAll(plantedCall)) {
    const [, name, json, field, how] = match;
    if (name === undefined || !available.has(name) || called.includes(name)) continue;
    try {
      const input = transformed(JSON.parse(json as string) as Record<string, unknown>, field, how);
      return { toolCall: { name, arguments: JSON.stringify(input) } };
    } catch {}
  }
  return { text: read.includes('denied') ? 'That was declined, so nothing was done.' : 'Done.' };
}

/**
 * What the scripted model says: asked for a ticket (and given the tool), it calls
 * createTicket; given a tool result, it says what happened; otherwise it chats.
 */
function reply(body: RecordedRequest): { toolCall?: { name: string; arguments: string }; text?: string } {
  const last = body.messages.at(-1);
  if (last?.role === 'tool') {
    const content = JSON.stringify(last.content);
    if (content.includes('denied')) return { text: 'Understood, you declined: nothing was created.' };
    const ticket = /TK-\d{6}/.exec(content)?.[0];
    return { text: ticket ? `Created ticket ${ticket}.` : 'Done.' };
  }
  const text = typeof last?.content === 'string' ? last.content : JSON.stringify(last?.content ?? '');
  const title = /ticket:\s*([^"\\]+)/i.exec(text)?.[1]?.trim();
  const canCreate = body.tools?.some((tool) => tool.function.name === 'createTicket');
  if (title && canCreate) return { toolCall: { name: 'createTicket', arguments: JSON.stringify({ title }) } };
  return { text: 'Happy to help.' };
}

/**
 * A small OpenAI-compatible server: `POST /v1/chat/completions`, streaming (SSE
 * chunks with tool-call deltas) and not. It records every request so a test can
 * check what a real provider adapter sent: the converted history. Asked for a
 * structured answer (the router), it names `routeTo`.
 */
export async function startFakeOpenAIServer({
  routeTo = 'refund',
  compromised = false,
  script,
}: {
  routeTo?: string;
  /** Obey instructions planted in what the model reads (see `compromisedReply`). */
  compromised?: boolean;
  /** A test's own reply to a streamed request, asked first; undefined leaves it to the others. */
  script?: (body: RecordedRequest) => Reply | undefined;
} = {}): Promise<{
  baseURL: string;
  requests: RecordedRequest[];
  close: () => Promise<void>;
}> {
  const requests: RecordedRequest[] = [];
  let callCounter = 0;
  const server: Server = createServer(async (request, response) => {
    if (request.method !== 'POST' || !request.url?.endsWith('/chat/completions')) {
      response
        .writeHead(404, { 'content-type': 'application/json' })
        .end('{"error":{"message":"not found"}}');
      return;
    }
    const body = JSON.parse(await readBody(request)) as RecordedRequest;
    requests.push(body);

    if (!body.stream) {
      // The router's constrained choice: answer the JSON it asks for, under the schema's own field name.
      const format = body.response_format as
        | { json_schema?: { schema?: { properties?: object } } }
        | undefined;
      const field = Object.keys(format?.json_schema?.schema?.properties ?? {})[0] ?? 'result';
      const content = format ? JSON.stringify({ [field]: routeTo }) : routeTo;
      response.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          id: 'chatcmpl-fake',
          object: 'chat.completion',
          created: 0,
          model: 'fake-model',
          choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
          usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
        }),
      );
      return;
    }

    response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    const send = (data: unknown) => response.write(`data: ${JSON.stringify(data)}\n\n`);
    const { toolCall, text } = script?.(body) ?? (compromised ? compromisedReply(body) : reply(body));
    if (toolCall) {
      callCounter += 1;
      const half = Math.ceil(toolCall.arguments.length / 2);
      send(
        chunk({
          role: 'assistant',
          content: null,
          tool_calls: [
            {
              index: 0,
              id: `call_fake_${callCounter}`,
              type: 'function',
              function: { name: toolCall.name, arguments: '' },
            },
          ],
        }),
      );
      send(chunk({ tool_calls: [{ index: 0, function: { arguments: toolCall.arguments.slice(0, half) } }] }));
      send(chunk({ tool_calls: [{ index: 0, function: { arguments: toolCall.arguments.slice(half) } }] }));
      send(chunk({}, 'tool_calls'));
    } else {
      send(chunk({ role: 'assistant', content: '' }));
      for (const word of (text ?? '').split(/(?<= )/)) send(chunk({ content: word }));
      send(chunk({}, 'stop'));
    }
    send({
      id: 'chatcmpl-fake',
      object: 'chat.completion.chunk',
      created: 0,
      model: 'fake-model',
      choices: [],
      usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
    });
    response.end('data: [DONE]\n\n');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
