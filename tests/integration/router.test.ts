import type { LanguageModelV4GenerateResult } from '@ai-sdk/provider';
import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { createOfflineModel } from '@/lib/ai/offline-model';
import { classifyWorker, routeWorker } from '@/lib/ai/router';

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
