import { asSchema, type Tool } from 'ai';

/** An input checked against a tool's schema: the parsed value, or what is wrong, per field. */
export type ToolInputValidation =
  | { ok: true; value: unknown }
  | { ok: false; error: string; fieldErrors: Record<string, string[]> };

type StandardIssue = { message: string; path?: ReadonlyArray<PropertyKey | { key: PropertyKey }> };
type StandardResult = { value?: unknown; issues?: readonly StandardIssue[] };

/**
 * Validates `input` with the tool's own inputSchema, as the SDK does for the model's
 * calls, so an edited input is held to exactly the same rules (and transformed the
 * same way: the parsed value is what runs). Field errors are keyed by the dotted path;
 * errors about the whole object sit under `""`.
 */
export async function validateToolInput(tool: Tool, input: unknown): Promise<ToolInputValidation> {
  const schema = tool.inputSchema as unknown;
  const standard = (schema as { '~standard'?: { validate: (value: unknown) => unknown } } | null)?.[
    '~standard'
  ];
  if (standard !== undefined) {
    const result = (await standard.validate(input)) as StandardResult;
    if (result.issues === undefined) return { ok: true, value: result.value };
    const fieldErrors: Record<string, string[]> = {};
    for (const issue of result.issues) {
      const field = (issue.path ?? [])
        .map((segment) => String(typeof segment === 'object' ? segment.key : segment))
        .join('.');
      fieldErrors[field] = [...(fieldErrors[field] ?? []), issue.message];
    }
    return { ok: false, error: firstFieldError(fieldErrors), fieldErrors };
  }
  const validate = asSchema(tool.inputSchema).validate;
  if (validate === undefined) return { ok: true, value: input };
  const result = await validate(input);
  if (result.success) return { ok: true, value: result.value };
  const message = result.error.message;
  return { ok: false, error: message, fieldErrors: { '': [message] } };
}

function firstFieldError(fieldErrors: Record<string, string[]>): string {
  const [field, messages] = Object.entries(fieldErrors)[0] ?? ['', ['Invalid input']];
  return field === '' ? messages[0] : `${field}: ${messages[0]}`;
}
