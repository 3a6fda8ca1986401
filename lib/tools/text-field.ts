/** How many items an array field of a tool result holds; 0 when it is absent. */
export function listLength(output: unknown, name: string): number {
  const value =
    typeof output === 'object' && output !== null ? (output as Record<string, unknown>)[name] : undefined;
  return Array.isArray(value) ? value.length : 0;
}

/** A string field of a tool input, shortened for one line; empty when absent. */
export function textField(input: unknown, name: string, maxLength = 60): string {
  const value =
    typeof input === 'object' && input !== null ? (input as Record<string, unknown>)[name] : undefined;
  const text = typeof value === 'string' || typeof value === 'number' ? String(value).trim() : '';
  return text.length > maxLength ? `${text.slice(0, maxLength - 1)}…` : text;
}
