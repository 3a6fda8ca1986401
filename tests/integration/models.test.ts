import type { LanguageModelV4 } from '@ai-sdk/provider';
import { describe, expect, it } from 'vitest';
import { getChatModel } from '@/lib/ai/models';
import { isOfflineModel } from '@/lib/ai/offline-model';
import { parseConfig } from '@/lib/config';

const providerOf = (model: unknown) => (model as LanguageModelV4).provider;

describe('getChatModel', () => {
  it('uses the offline model when no key is configured', () => {
    const selection = getChatModel(parseConfig({}));
    expect(selection).toMatchObject({ kind: 'offline', label: 'offline (deterministic)' });
    expect(isOfflineModel(selection.model)).toBe(true);
  });

  it('uses the offline model when AI_MODEL=offline, even with a key', () => {
    expect(getChatModel(parseConfig({ AI_MODEL: 'offline', OPENAI_API_KEY: 'sk-test' })).kind).toBe(
      'offline',
    );
  });

  it('uses the OpenAI Responses model OPENAI_MODEL when a key is set', () => {
    const selection = getChatModel(parseConfig({ OPENAI_API_KEY: 'sk-test', OPENAI_MODEL: 'gpt-4.1-mini' }));
    expect(selection).toMatchObject({ kind: 'openai', label: 'openai:gpt-4.1-mini' });
    expect(providerOf(selection.model)).toBe('openai.responses');
  });

  it('uses chat completions for an OpenAI-compatible server at OPENAI_BASE_URL', () => {
    const selection = getChatModel(
      parseConfig({
        OPENAI_API_KEY: 'ollama',
        OPENAI_BASE_URL: 'http://127.0.0.1:11434/v1',
        OPENAI_MODEL: 'qwen3',
      }),
    );
    expect(selection.label).toBe('openai:qwen3');
    expect(providerOf(selection.model)).toBe('openai.chat');
  });

  it('refuses AI_MODEL=openai without a key instead of quietly going offline', () => {
    expect(() => getChatModel(parseConfig({ AI_MODEL: 'openai' }))).toThrow(
      /AI_MODEL=openai needs OPENAI_API_KEY/,
    );
  });
});
