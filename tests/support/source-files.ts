import { readdirSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

/** The repository root (this file is tests/support/source-files.ts). */
export const repositoryRoot = resolve(import.meta.dirname, '../..');

const codeFile = /\.(?:ts|tsx|mts|cts|js|jsx|mjs|cjs)$/;

/**
 * Every code file of the repository, repo-relative with `/` separators: node_modules, build
 * output and other dot-folders left out.
 */
export function codeFiles(directory = repositoryRoot): string[] {
  return readdirSync(directory).flatMap((name) => {
    const path = join(directory, name);
    if (name === 'node_modules' || name.startsWith('.')) return [];
    if (statSync(path).isDirectory()) return codeFiles(path);
    return codeFile.test(name) ? [relative(repositoryRoot, path).split('\\').join('/')] : [];
  });
}
