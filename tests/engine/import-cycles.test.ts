import { describe, expect, it } from 'vitest';
import { importCycles, importGraph } from '../support/import-graph';

describe('the import graph of app/, components/ and lib/', () => {
  const graph = importGraph(['app', 'components', 'lib']);

  it('is read from the real sources', () => {
    expect(graph.size).toBeGreaterThan(100);
    expect(graph.get('lib/chat/run-chat-turn.ts')).toContain('lib/turn-table/assemble-turn-tools.ts');
  });

  it('has no import cycles (type-only imports included)', () => {
    expect(importCycles(graph)).toEqual([]);
  });
});

describe('importCycles', () => {
  it('finds a circle of three files and a file that imports itself, and nothing in a chain', () => {
    const graph = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a', 'd']],
      ['d', []],
      ['e', ['e']],
    ]);
    expect(importCycles(graph)).toEqual([['a', 'b', 'c'], ['e']]);
  });
});
