import { accessSync, constants } from 'node:fs';

/** True when `path` exists and this process may execute it (how the test setup finds redis-server and initdb). */
export function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
