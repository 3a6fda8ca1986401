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

/** A field of a tool output as a reply shows it: strings as they are, null and undefined as '', anything else through `String`. */
export function replyText(value: unknown): string {
  return typeof value === 'string' ? value : value == null ? '' : String(value);
}

/** The object items of an array field of a tool output; none when it is absent or not an array. */
export function recordsIn(
  output: Readonly<Record<string, unknown>>,
  name: string,
): Record<string, unknown>[] {
  const value = output[name];
  return Array.isArray(value)
    ? value.filter((item): item is Record<string, unknown> => typeof item === 'object' && item !== null)
    : [];
}

/** An amount as replies and cards write it: two decimals and the currency code, `45.50 USD`. */
export function formatAmount(amount: unknown, currency: unknown): string {
  const value = typeof amount === 'number' && Number.isFinite(amount) ? amount.toFixed(2) : replyText(amount);
  const code = replyText(currency);
  return code === '' ? value : `${value} ${code}`;
}
