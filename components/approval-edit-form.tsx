'use client';

import { hasHiddenCharacters, revealHiddenCharacters } from '@toolgate/engine/client';
import { type FormEvent, useId, useState } from 'react';
import type { JsonSchema } from './api-types';
import type { Locale } from './i18n';
import { Button } from './ui/button';
import { Input } from './ui/input';
import { Textarea } from './ui/textarea';
import { useWorkspace } from './workspace-provider';

type FieldKind = 'text' | 'longText' | 'number';

function kindOf(schema: JsonSchema): FieldKind | undefined {
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  if (types.includes('string')) return (schema.maxLength ?? 0) > 200 ? 'longText' : 'text';
  if (types.includes('number') || types.includes('integer')) return 'number';
  return undefined;
}

/** The fields of a tool's input the form can edit: strings and numbers, in schema order. */
function fieldsOf(schema: JsonSchema) {
  return Object.entries(schema.properties ?? {}).flatMap(([name, field]) => {
    const kind = kindOf(field);
    return kind === undefined
      ? []
      : [{ name, kind, field, required: schema.required?.includes(name) ?? false }];
  });
}

/** Whether the form can edit this tool's input (every field is a string or a number). */
export function canEditInput(schema: JsonSchema | undefined): schema is JsonSchema {
  if (schema?.properties === undefined) return false;
  return fieldsOf(schema).length === Object.keys(schema.properties).length;
}

/**
 * The approval card's Edit: one field per input property, labelled in the reader's
 * language by the tool's own field labels (a tool without them, such as an MCP tool,
 * shows its name and the schema's description), prefilled with what the model proposed. The server validates
 * the whole input against the same schema; the fields it names are marked, in the
 * reader's language (the server's own messages are written for the model). A value that
 * holds hidden characters (a U+202E, a zero-width space) is shown beside its field with each
 * one as its code point, since the field itself draws them invisibly.
 */
export function ApprovalEditForm({
  schema,
  labels,
  input,
  fieldErrors,
  sending,
  onSubmit,
  onCancel,
}: {
  schema: JsonSchema;
  /** The tool's label of each field by name, in every UI language. */
  labels?: Record<string, Record<Locale, string>>;
  input: unknown;
  fieldErrors: Record<string, string[]>;
  sending: boolean;
  onSubmit: (input: Record<string, unknown>) => void;
  onCancel: () => void;
}) {
  const { t, locale } = useWorkspace();
  const id = useId();
  const fields = fieldsOf(schema);
  const initial = (typeof input === 'object' && input !== null ? input : {}) as Record<string, unknown>;
  const [values, setValues] = useState<Record<string, string>>(() =>
    Object.fromEntries(fields.map(({ name }) => [name, initial[name] == null ? '' : String(initial[name])])),
  );

  function submit(event: FormEvent) {
    event.preventDefault();
    const edited: Record<string, unknown> = {};
    for (const { name, kind, required } of fields) {
      const value = values[name] ?? '';
      // An emptied optional field means "leave it out", not "an empty value".
      if (value === '' && !required) continue;
      edited[name] = kind === 'number' && value !== '' ? Number(value) : value;
    }
    onSubmit(edited);
  }

  const formErrors = fieldErrors[''];
  return (
    <form
      onSubmit={submit}
      className="flex flex-col gap-2"
      aria-label={t.editInput}
      data-testid="approval-edit-form"
    >
      {fields.map(({ name, kind, field, required }) => {
        const fieldId = `${id}-${name}`;
        const errors = fieldErrors[name];
        const errorId = `${fieldId}-error`;
        const value = values[name] ?? '';
        const revealedId = `${fieldId}-revealed`;
        const revealed = hasHiddenCharacters(value);
        const describedBy = [errors !== undefined && errorId, revealed && revealedId]
          .filter(Boolean)
          .join(' ');
        const label =
          labels !== undefined && Object.hasOwn(labels, name) ? labels[name]?.[locale] : undefined;
        const common = {
          id: fieldId,
          name,
          value,
          'aria-invalid': errors !== undefined,
          'aria-describedby': describedBy === '' ? undefined : describedBy,
          onChange: (event: { target: { value: string } }) =>
            setValues((current) => ({ ...current, [name]: event.target.value })),
        };
        return (
          <div key={name} className="flex flex-col gap-1">
            <label htmlFor={fieldId} className="text-xs font-medium">
              {label ?? <span className="font-mono">{name}</span>}
              {required && <span aria-hidden="true"> *</span>}
              {label === undefined && field.description !== undefined && (
                <span className="block font-normal text-muted-foreground">{field.description}</span>
              )}
            </label>
            {kind === 'longText' ? (
              <Textarea {...common} />
            ) : (
              <Input
                {...common}
                type={kind === 'number' ? 'number' : 'text'}
                required={required && kind === 'number'}
              />
            )}
            {revealed && (
              <p id={revealedId} className="text-xs text-muted-foreground" data-testid="field-revealed">
                {t.hiddenCharactersShown}{' '}
                <span className="font-mono break-all">{revealHiddenCharacters(value)}</span>
              </p>
            )}
            {errors !== undefined && (
              <p id={errorId} className="text-xs text-destructive" data-testid="field-error">
                {t.fieldInvalid(label ?? name, field)}
              </p>
            )}
          </div>
        );
      })}
      {formErrors !== undefined && (
        <p role="alert" className="text-xs text-destructive">
          {t.inputInvalid}
        </p>
      )}
      <div className="flex justify-end gap-2">
        <Button type="button" variant="ghost" size="sm" onClick={onCancel} disabled={sending}>
          {t.cancel}
        </Button>
        <Button type="submit" size="sm" disabled={sending}>
          {t.allowEdited}
        </Button>
      </div>
    </form>
  );
}
