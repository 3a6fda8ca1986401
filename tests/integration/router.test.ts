import { createOpenAI } from '@ai-sdk/openai';
import type { LanguageModelV4GenerateResult } from '@ai-sdk/provider';
import type { UIMessage } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { createOfflineModel } from '@/lib/ai/offline-model';
import { classifyWorker, routeWorker, workerHoldingTool } from '@/lib/ai/router';
import { startFakeOpenAIServer } from '../support/fake-openai-server';

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 3, text: 3, reasoning: 0 },
};

/** A generate result whose only content is this text. */
const answer = (text: string): LanguageModelV4GenerateResult => ({
  content: [{ type: 'text', text }],
  finishReason: { unified: 'stop', raw: 'stop' },
  usage,
  warnings: [],
});

describe('classifyWorker', () => {
  it.each([
    ['帮我创建一个工单：耳机坏了', 'refund'],
    ['open a ticket about a missing parcel', 'refund'],
    ['订单 A1001 到哪了', 'order'],
    ['track A1003', 'order'],
    ['运费多少', 'knowledge'],
    ['refund policy', 'knowledge'],
    ['提醒我明天交报告', 'assistant'],
    ['show my todos', 'assistant'],
  ] as const)('sends "%s" to %s', (text, worker) => {
    expect(classifyWorker(text)).toBe(worker);
  });

  it('sends greetings and messages it does not understand to the help centre', () => {
    expect(classifyWorker('你好')).toBe('knowledge');
    expect(classifyWorker('hello')).toBe('knowledge');
    expect(classifyWorker('do you sell gift cards?')).toBe('knowledge');
    expect(classifyWorker('')).toBe('knowledge');
  });
});

describe('routeWorker', () => {
  it('uses the keyword classifier without a model', async () => {
    expect(await routeWorker({ text: 'where is my order A1001' })).toBe('order');
  });

  it('does not ask the offline model to classify', async () => {
    expect(await routeWorker({ text: 'add a todo: buy milk', model: createOfflineModel() })).toBe(
      'assistant',
    );
  });

  it('asks a real model to choose among the four workers and takes its choice', async () => {
    const model = new MockLanguageModelV4({ doGenerate: answer('{"worker":"refund"}') });
    // The keywords alone would say "order"; the model's reading wins.
    expect(await routeWorker({ text: 'my order A1001 arrived broken, I want my money back', model })).toBe(
      'refund',
    );
    const [call] = model.doGenerateCalls;
    expect(call.responseFormat).toMatchObject({
      type: 'json',
      schema: { properties: { worker: { enum: ['order', 'refund', 'knowledge', 'assistant'] } } },
    });
    expect(call.prompt.at(-1)).toEqual({
      role: 'user',
      content: [{ type: 'text', text: 'my order A1001 arrived broken, I want my money back' }],
    });
  });

  it('falls back to the classifier when the model fails', async () => {
    const model = new MockLanguageModelV4({
      doGenerate: async () => {
        throw new Error('connection refused');
      },
    });
    expect(await routeWorker({ text: '列出我的待办', model })).toBe('assistant');
  });

  it('falls back to the classifier when the model names no worker', async () => {
    const model = new MockLanguageModelV4({ doGenerate: answer('{"worker":"billing"}') });
    expect(await routeWorker({ text: 'what is your return policy', model })).toBe('knowledge');
  });

  it('accepts a worker named in plain text by a model that ignores the JSON format', async () => {
    const model = new MockLanguageModelV4({ doGenerate: answer('order') });
    expect(await routeWorker({ text: 'hello', model })).toBe('order');
  });

  it('gives up on a slow model after timeoutMs and classifies instead', async () => {
    const model = new MockLanguageModelV4({
      doGenerate: (options) =>
        new Promise((_, reject) => {
          options.abortSignal?.addEventListener('abort', () => reject(options.abortSignal?.reason));
        }),
    });
    const started = Date.now();
    expect(await routeWorker({ text: 'create a ticket: late', model, timeoutMs: 50 })).toBe('refund');
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});

const user = (id: string, text: string): UIMessage => ({ id, role: 'user', parts: [{ type: 'text', text }] });
const assistant = (id: string, text: string, worker: string): UIMessage => ({
  id,
  role: 'assistant',
  parts: [{ type: 'text', text }],
  metadata: { worker, model: 'offline (deterministic)' },
});

describe('routeWorker over a conversation', () => {
  const askedForTitle = [
    user('u1', 'I’d like to report a problem'),
    assistant('a1', 'To open a ticket I need a title: what should the ticket say?', 'refund'),
  ];

  it('keeps an answer to a question with the worker that asked it', async () => {
    const text = 'the fridge is noisy';
    expect(await routeWorker({ text })).toBe('knowledge');
    expect(await routeWorker({ text, messages: [...askedForTitle, user('u2', text)] })).toBe('refund');
    const zh = [
      user('u1', '提醒我点事'),
      assistant('a1', '要添加待办，请告诉我具体内容：待办写什么？', 'assistant'),
      user('u2', '周五交物业费'),
    ];
    expect(await routeWorker({ text: '周五交物业费', messages: zh })).toBe('assistant');
  });

  it('keeps an answer with the worker whose question it answers when the question carries no metadata', async () => {
    // A conversation built by a client, or saved before answers carried their worker, has no metadata.
    const bare = (id: string, text: string): UIMessage => ({
      id,
      role: 'assistant',
      parts: [{ type: 'text', text }],
    });
    const text = 'the coffee machine leaks';
    const messages = [
      user('u1', 'I’d like to report a problem'),
      bare('a1', 'To open a ticket I need a title: what should the ticket say?'),
      user('u2', text),
    ];
    expect(await routeWorker({ text, messages })).toBe('refund');
    const zh = [
      user('u1', '提醒我点事'),
      bare('a1', '要添加待办，请告诉我具体内容：待办写什么？'),
      user('u2', '周五交物业费'),
    ];
    expect(await routeWorker({ text: '周五交物业费', messages: zh })).toBe('assistant');
    const order = [
      user('u1', '查订单'),
      bare('a1', '请告诉我订单号（形如 A1001），我来帮你查询。'),
      user('u2', 'A1003'),
    ];
    expect(await routeWorker({ text: 'A1003', messages: order })).toBe('order');
  });

  it('keeps a reply with a worker whose answer ended in any question', async () => {
    const messages = [
      user('u1', 'hi'),
      assistant('a1', 'Which colour did you order?', 'order'),
      user('u2', 'blue'),
    ];
    expect(await routeWorker({ text: 'blue', messages })).toBe('order');
  });

  it('switches when the reply starts a new topic', async () => {
    const text = 'what is your return policy?';
    expect(await routeWorker({ text, messages: [...askedForTitle, user('u2', text)] })).toBe('knowledge');
  });

  it('routes on the message alone after an answer that asked nothing', async () => {
    const messages = [
      user('u1', 'create a ticket: broken lid'),
      assistant('a1', 'Created ticket TK-000001: broken lid. Our support team will follow up.', 'refund'),
      user('u2', 'the fridge is noisy'),
    ];
    expect(await routeWorker({ text: 'the fridge is noisy', messages })).toBe('knowledge');
  });

  it('sends a /tool message to the worker holding the tool, whatever the conversation', async () => {
    const text = '/tool listTodos {}';
    expect(await routeWorker({ text, messages: [...askedForTitle, user('u2', text)] })).toBe('assistant');
    expect(workerHoldingTool('getOrderStatus')).toBe('order');
    expect(workerHoldingTool('mail__send')).toBeUndefined();
    expect(workerHoldingTool('toString')).toBeUndefined();
    expect(workerHoldingTool('mail__send', { assistant: ['addTodo', 'mail__send'] })).toBe('assistant');
  });

  it('asks a real OpenAI-compatible model for a structured choice over the recent conversation', async () => {
    const fake = await startFakeOpenAIServer({ routeTo: 'assistant' });
    try {
      const model = createOpenAI({ apiKey: 'sk-test', baseURL: fake.baseURL }).chat('fake-model');
      const text = 'the fridge is noisy';
      // The classifier alone would say "refund" here; the model's reading wins.
      expect(await routeWorker({ text, messages: [...askedForTitle, user('u2', text)], model })).toBe(
        'assistant',
      );
      const [request] = fake.requests;
      expect(request?.response_format).toMatchObject({
        type: 'json_schema',
        json_schema: {
          schema: { properties: { worker: { enum: ['order', 'refund', 'knowledge', 'assistant'] } } },
        },
      });
      expect(request?.messages.slice(1)).toEqual([
        { role: 'user', content: 'I’d like to report a problem' },
        {
          role: 'assistant',
          content: '[refund worker] To open a ticket I need a title: what should the ticket say?',
        },
        { role: 'user', content: 'the fridge is noisy' },
      ]);
    } finally {
      await fake.close();
    }
  });

  it('falls back to the conversation rules when the real model answers outside the enum', async () => {
    const fake = await startFakeOpenAIServer({ routeTo: 'billing' });
    try {
      const model = createOpenAI({ apiKey: 'sk-test', baseURL: fake.baseURL }).chat('fake-model');
      const text = 'the fridge is noisy';
      expect(await routeWorker({ text, messages: [...askedForTitle, user('u2', text)], model })).toBe(
        'refund',
      );
    } finally {
      await fake.close();
    }
  });
});
