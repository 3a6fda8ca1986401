/** How deeply any request body may nest arrays and objects: far beyond a real body, far below a stack. */
export const maxJsonDepth = 64;

/**
 * Whether `value` nests arrays and objects deeper than `limit` levels. Walks without
 * recursion, so a hostile body cannot exhaust the stack here (as it would in
 * `JSON.stringify` or `structuredClone` further on).
 */
export function nestsDeeperThan(value: unknown, limit: number): boolean {
  const pending: Array<{ value: unknown; depth: number }> = [{ value, depth: 0 }];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    if (typeof next.value !== 'object' || next.value === null) continue;
    const depth = next.depth + 1;
    if (depth > limit) return true;
    for (const child of Object.values(next.value)) pending.push({ value: child, depth });
  }
  return false;
}
