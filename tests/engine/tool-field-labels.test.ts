import { describe, expect, it } from 'vitest';
import { fieldLabelsByTool } from '@/lib/tools/tool-field-labels';
import { toolInputJsonSchemas } from '@/lib/tools/tool-input-json-schemas';

const schemas = toolInputJsonSchemas();

describe('fieldLabelsByTool', () => {
  it('labels every input field of every built-in tool, and nothing else', () => {
    for (const [toolName, schema] of Object.entries(schemas)) {
      const fields = Object.keys((schema.properties ?? {}) as Record<string, unknown>).sort();
      const labels = fieldLabelsByTool[toolName as keyof typeof fieldLabelsByTool];
      expect(Object.keys(labels).sort(), toolName).toEqual(fields);
    }
  });

  it('gives each label in Chinese and in English, never the model-facing description', () => {
    for (const [toolName, labels] of Object.entries(fieldLabelsByTool)) {
      const properties = (schemas[toolName]?.properties ?? {}) as Record<string, { description?: string }>;
      for (const [field, { en, zh }] of Object.entries(labels)) {
        expect(zh, `${toolName}.${field}`).toMatch(/\p{Script=Han}/u);
        expect(en, `${toolName}.${field}`).toMatch(/^[A-Z]/);
        expect(en).not.toBe(properties[field]?.description);
      }
    }
  });
});
