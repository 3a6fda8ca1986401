import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { toolNames } from '@/lib/tools/tool-catalog';
import { codeFiles, repositoryRoot } from '../support/source-files';

/*
 * A built-in tool is declared once, on the tool (`lib/tools/<tool>-facts.ts` and `<tool>.ts`);
 * everything else reads its facts from the catalog. The classifier under lib/ai/nlu/ keeps the
 * names as its own labels (a trained model's), and tests, benchmarks and examples call the tools
 * by name as any caller would.
 */
const mayNameTools = ['lib/tools/', 'lib/ai/nlu/', 'tests/', 'e2e/', 'bench/', 'examples/'];

/** The built-in tool names a text contains, in catalog order. */
const namesIn = (text: string) => toolNames.filter((name) => text.includes(name));

describe('the names of the built-in tools', () => {
  const files = codeFiles();

  it('are read from a walk of the real sources', () => {
    expect(files).toContain('lib/ai/offline-model.ts');
    expect(files).toContain('lib/tools/tool-catalog.ts');
    expect(files).toContain('app/api/todos/route.ts');
    expect(namesIn(readFileSync(join(repositoryRoot, 'lib/tools/intent-labels.ts'), 'utf8'))).toEqual([
      ...toolNames,
    ]);
  });

  it('appear in no code outside lib/tools/ and the classifier, not even in a comment', () => {
    const naming = files
      .filter((file) => !mayNameTools.some((folder) => file.startsWith(folder)))
      .flatMap((file) => {
        const names = namesIn(readFileSync(join(repositoryRoot, file), 'utf8'));
        return names.length === 0 ? [] : [`${file}: ${names.join(', ')}`];
      });
    expect(naming).toEqual([]);
  });
});
