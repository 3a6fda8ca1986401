import 'server-only';
import { createOpenAI } from '@ai-sdk/openai';
import type { LanguageModel } from 'ai';
import { type AppConfig, ConfigError, getConfig } from '@/lib/config';
import { createOfflineModel } from './offline-model';

/** The model that answers chats, and how to name it in the UI and logs. */
export type ChatModelSelection = {
  model: LanguageModel;
  /** e.g. `offline (deterministic)` or `openai:gpt-4o-mini`. */
  label: string;
  kind: 'offline' | 'openai';
};

/**
 * Chooses the chat model from configuration.
 * - `AI_MODEL=offline`, or no `OPENAI_API_KEY`: the embedded offline model (delay `OFFLINE_MODEL_DELAY_MS`).
 * - `OPENAI_API_KEY`: OpenAI model `OPENAI_MODEL`. With `OPENAI_BASE_URL` (Ollama, vLLM, LM Studio…)
 *   the chat-completions model is used, because such servers lack the Responses API that the
 *   provider's default model calls.
 * - `AI_MODEL=openai` without a key is a configuration error rather than a quiet fallback.
 */
export function getChatModel(config: AppConfig = getConfig()): ChatModelSelection {
  if (config.AI_MODEL === 'openai' && config.OPENAI_API_KEY === undefined) {
    throw new ConfigError('AI_MODEL=openai needs OPENAI_API_KEY; unset AI_MODEL to use the offline model');
  }
  if (config.AI_MODEL === 'offline' || config.OPENAI_API_KEY === undefined) {
    return {
      model: createOfflineModel({ delayMs: config.OFFLINE_MODEL_DELAY_MS }),
      label: 'offline (deterministic)',
      kind: 'offline',
    };
  }
  const provider = createOpenAI({ apiKey: config.OPENAI_API_KEY, baseURL: config.OPENAI_BASE_URL });
  const modelId = config.OPENAI_MODEL;
  return {
    model: config.OPENAI_BASE_URL === undefined ? provider(modelId) : provider.chat(modelId),
    label: `openai:${modelId}`,
    kind: 'openai',
  };
}
