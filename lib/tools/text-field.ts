/** A string field of a tool input, shortened for one line; empty when absent. */
export function textField(input: unknown, name: string, maxLength = 60): string {
  const value =
    typeof input === 'object' && input !== null ? (input as Record<string, unknown>)[name] : undefined;
  const text = typeof value === 'string' || typeof value === 'number' ? String(value).trim() : '';
  return text.length > maxLength ? `${text.slice(0, maxLength - 1)}…` : text;
}
