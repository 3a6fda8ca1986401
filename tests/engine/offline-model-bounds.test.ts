import type { LanguageModelV4CallOptions } from '@ai-sdk/provider';
import fc from 'fast-check';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { titleTokenContext, titleTokenFeatures } from '@/lib/ai/nlu/features';
import { understand, understoodLength } from '@/lib/ai/nlu/understand';
import { createOfflineModel } from '@/lib/ai/offline-model';

/*
 * The offline model's work per message is counted, not timed: every character the classifier
 * and the tokenizer read, and every token the title tagger scores, goes through the counters
 * below (the real functions, wrapped). Work that grows with the square of the message shows as
 * a count far above a small multiple of its length.
 */
const work = vi.hoisted(() => ({ characters: 0, taggedTokens: 0 }));

vi.mock('@/lib/ai/nlu/features', async (importOriginal) => {
  const original = await importOriginal<typeof import('@/lib/ai/nlu/features')>();
  return {
    ...original,
    tokenize: (text: string) => {
      work.characters += text.length;
      return original.tokenize(text);
    },
    intentFeatures: (text: string) => {
      work.characters += text.length;
      return original.intentFeatures(text);
    },
    titleTokenFeatures: (...args: Parameters<typeof original.titleTokenFeatures>) => {
      work.taggedTokens += 1;
      return original.titleTokenFeatures(...args);
    },
  };
});

beforeEach(() => {
  work.characters = 0;
  work.taggedTokens = 0;
});

/** Work allowed per character read: a few readings of each clause, as the clause split re-reads merged pieces. */
const workPerCharacter = 40;

const cluster = (...ranges: [number, number][]) =>
  fc
    .array(fc.oneof(...ranges.map(([min, max]) => fc.integer({ min, max }))), { maxLength: 300 })
    .map((codes) => String.fromCodePoint(...codes));

/** Text of every kind people (and attackers) paste: scripts, emoji, combining marks, bidi controls, separators, order numbers. */
const hostileText = fc.oneof(
  cluster([0x41, 0x5a], [0x61, 0x7a], [0x20, 0x20], [0x2c, 0x2c]),
  cluster([0x4e00, 0x9fff], [0xff0c, 0xff0c], [0xff1a, 0xff1a], [0x3002, 0x3002]),
  cluster([0x0400, 0x04ff], [0x20, 0x20]),
  cluster([0x0600, 0x06ff], [0x200e, 0x200f], [0x202a, 0x202e], [0x2066, 0x2069]),
  cluster([0x1f300, 0x1faff], [0x200d, 0x200d], [0xfe0f, 0xfe0f]),
  cluster([0x61, 0x7a], [0x0300, 0x036f]),
  fc.string({ unit: 'binary', maxLength: 300 }),
  fc
    .array(
      fc.constantFrom(
        ':',
        '：',
        ',',
        '，',
        ' ',
        'ticket',
        '工单',
        '待办',
        'and',
        '然后',
        'A1001',
        'refund',
        '退',
        '$',
        '80',
        '元',
        '.',
      ),
      { maxLength: 300 },
    )
    .map((parts) => parts.join('')),
  fc
    .array(fc.tuple(fc.constantFrom('A', 'b', 'Z'), fc.integer({ min: 1000, max: 99_999_999 })), {
      maxLength: 80,
    })
    .map((ids) => ids.map(([letter, number]) => `${letter}${number}`).join(' ')),
);

/** A message of one of those kinds, repeated until it is long (up to about 40,000 characters). */
const longMessage = fc
  .tuple(
    hostileText,
    fc.integer({ min: 1, max: 400 }),
    fc.constantFrom('', 'create a ticket: ', '帮我记一下', 'refund 80 on A1002 because '),
  )
  .map(([text, times, lead]) => `${lead}${text.repeat(times)}`);

describe('understand', () => {
  it('never throws and does work linear in what it reads, for long text of every script', () => {
    fc.assert(
      fc.property(longMessage, (text) => {
        work.characters = 0;
        work.taggedTokens = 0;
        const understanding = understand(text);
        expect(understanding.requests).toBeInstanceOf(Array);
        const read = Math.min(text.length, understoodLength);
        expect(work.characters).toBeLessThanOrEqual(workPerCharacter * read + 100);
        expect(work.taggedTokens).toBeLessThanOrEqual(workPerCharacter * read + 100);
      }),
      { numRuns: 150 },
    );
    // 150 long messages, the first of which also builds the word segmenter: generous on a busy machine.
  }, 30_000);

  it.each([
    ['one character 100,000 times', 'a'.repeat(100_000)],
    ['one Han character 100,000 times', '工'.repeat(100_000)],
    ['many separators', '：:，,'.repeat(25_000)],
    ['many clauses', 'remind me to buy milk, '.repeat(4_000)],
    ['many spaces inside a request', `create a ticket ${' '.repeat(100_000)}x`],
    ['many order numbers', 'A1001 '.repeat(20_000)],
    ['many spaces inside a refund', `refund${' '.repeat(100_000)}80`],
    ['many digits in a refund', `refund ${'1'.repeat(100_000)}`],
  ])('reads only the first 2,000 characters of %s', (_name, text) => {
    const understanding = understand(text);
    const read = understoodLength;
    expect(work.characters).toBeLessThanOrEqual(workPerCharacter * read + 100);
    expect(understanding).toEqual(understand(text.slice(0, understoodLength)));
  });
});

describe('titleTokenFeatures', () => {
  it('reads a bounded number of tokens per token, however long the message is', () => {
    for (const length of [1_000, 4_000]) {
      let reads = 0;
      const base = Array.from({ length }, (_, index) => (index % 7 === 0 ? '：' : '<han>'));
      const tokens = new Proxy(base, {
        get(target, key, receiver) {
          if (typeof key === 'string' && /^\d+$/.test(key)) reads += 1;
          return Reflect.get(target, key, receiver);
        },
      });
      const context = titleTokenContext(tokens);
      for (let index = 0; index < length; index += 1) titleTokenFeatures(context, index, 'O', 'createTicket');
      expect(reads).toBeLessThanOrEqual(12 * length);
    }
  });
});

describe('the offline model', () => {
  const callWith = (parts: string[]): LanguageModelV4CallOptions => ({
    prompt: [{ role: 'user', content: parts.map((text) => ({ type: 'text' as const, text })) }],
    tools: ['createTicket', 'getOrderStatus', 'searchKnowledgeBase', 'addTodo', 'listTodos'].map((name) => ({
      type: 'function' as const,
      name,
      inputSchema: { type: 'object' as const },
    })),
  });

  it('answers a message of 50 parts of 8,000 characters, reading only its start', async () => {
    const parts = Array.from({ length: 50 }, (_, index) => `${'打印机卡纸了，'.repeat(1_142)}${index}`);
    const result = await createOfflineModel().doGenerate(callWith(parts));
    expect(result.content.length).toBeGreaterThan(0);
    expect(work.characters).toBeLessThanOrEqual(workPerCharacter * understoodLength + 100);
  });

  it.each([
    ['en', 'hello '.repeat(1_000), 'I read only the first 2,000 characters of your message.'],
    ['zh', '你好'.repeat(1_500), '我只读了你消息的前 2,000 个字符。'],
  ])('says in %s that it read only the first 2,000 characters', async (_language, text, note) => {
    const result = await createOfflineModel().doGenerate(callWith([text]));
    const reply = result.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('');
    expect(reply.startsWith(note)).toBe(true);
  });

  it('does not mention a cap for a message within it', async () => {
    const result = await createOfflineModel().doGenerate(callWith(['hello']));
    const reply = result.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('');
    expect(reply).not.toContain('2,000');
  });

  it('answers a `/tool` command nested deeper than 64 levels with a reply that says so, and makes no call', async () => {
    // Three parts of 8,000 characters, within the message's limits: about 12,000 levels.
    const command = `/tool createTicket ${'['.repeat(11_990)}${']'.repeat(11_990)}`;
    const parts = [command.slice(0, 8_000), command.slice(8_000, 16_000), command.slice(16_000)];
    const english = callWith(parts);
    // The same command after a conversation in Chinese is answered in Chinese.
    const chinese = {
      ...english,
      prompt: [
        { role: 'user' as const, content: [{ type: 'text' as const, text: '你好' }] },
        { role: 'assistant' as const, content: [{ type: 'text' as const, text: '你好！' }] },
        ...english.prompt,
      ],
    };
    for (const [options, reply] of [
      [english, 'nests deeper than 64 levels'],
      [chinese, '超过 64 层'],
    ] as const) {
      const result = await createOfflineModel().doGenerate(options);
      expect(result.content.some((part) => part.type === 'tool-call')).toBe(false);
      const answer = result.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('');
      expect(answer).toContain(reply);
    }
  });

  it('never throws and always answers with text or a call, whatever the message', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(longMessage, { minLength: 1, maxLength: 3 }), async (parts) => {
        const result = await createOfflineModel().doGenerate(callWith(parts));
        expect(result.content.length).toBeGreaterThan(0);
      }),
      { numRuns: 60 },
    );
  });
});
