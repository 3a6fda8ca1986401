import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { testDistDir } from '../support/next-server';

function filesUnder(directory: string): string[] {
  return readdirSync(directory).flatMap((name) => {
    const path = join(directory, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

describe('the client bundle', () => {
  it('never contains OPENAI_API_KEY, even when the build ran with one', () => {
    // scripts/build-test.mjs builds with a random canary key and leaves it here.
    const canary = readFileSync(join(testDistDir, 'toolgate-canary.txt'), 'utf8').trim();
    expect(canary).toMatch(/^sk-toolgate-canary-/);

    const clientFiles = filesUnder(join(testDistDir, 'static'));
    const contents = clientFiles.map((path) => readFileSync(path, 'utf8'));
    // The scan reads the real client code: the page's own strings are in it.
    expect(contents.some((text) => text.includes('/api/chat'))).toBe(true);
    expect(clientFiles.filter((_path, index) => contents[index]?.includes(canary))).toEqual([]);
  });

  it('holds the tools’ one-line summaries, which the page imports, but not the tools themselves or the database layer', () => {
    const contents = filesUnder(join(testDistDir, 'static')).map((path) => readFileSync(path, 'utf8'));
    const anyFile = (text: string) => contents.some((content) => content.includes(text));
    // lib/tools/tool-summaries.ts is imported by the tool card: only the pure summary functions may come along.
    expect(anyFile('Look up order')).toBe(true);
    expect(anyFile('Look up one order by its number')).toBe(false);
    expect(anyFile('knowledge_fts')).toBe(false);
    expect(anyFile('insertInto')).toBe(false);
  });
});
