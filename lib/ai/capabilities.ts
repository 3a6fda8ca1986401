import { isToolName, type ToolName, toolCatalog } from '@/lib/tools/tool-catalog';
import type { ToolFacts } from '@/lib/tools/tool-facts';
import type { Language } from './language';

/** What each tool does and an example request, in both languages, for help texts (declared in its facts). */
export const toolCapabilities: Record<ToolName, ToolFacts['capability']> = Object.fromEntries(
  toolCatalog.map((facts) => [facts.name, facts.capability]),
) as Record<ToolName, ToolFacts['capability']>;

/**
 * A markdown list of what these tools let the assistant do, each with the tool's name and
 * an example request. Unknown names are skipped; no known tool gives a sentence saying so.
 */
export function describeCapabilities(toolNames: Iterable<string>, language: Language): string {
  const lines = [...toolNames].filter(isToolName).map((name) => {
    const { action, example } = toolCapabilities[name];
    return language === 'zh'
      ? `- ${action.zh}（${name}），例如「${example.zh}」`
      : `- ${action.en} (${name}), e.g. “${example.en}”`;
  });
  if (lines.length === 0) {
    return language === 'zh'
      ? '这里没有可用的工具，我只能回答一般的问题。'
      : 'I have no tools here, so I can only chat.';
  }
  return `${language === 'zh' ? '我可以：' : 'I can:'}\n\n${lines.join('\n')}`;
}
