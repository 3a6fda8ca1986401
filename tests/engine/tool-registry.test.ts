import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { intentLabels } from '@/lib/tools/intent-labels';
import { toolRegistry } from '@/lib/tools/registry';
import { toolCatalog, toolNames, toolNamesByWorker, writeToolNames } from '@/lib/tools/tool-catalog';
import { workerNames } from '@/lib/tools/worker-names';

const languages = ['en', 'zh'] as const;

describe('toolRegistry', () => {
  it('registers exactly the tools the catalog describes, each name once', () => {
    const registered = toolRegistry.map((descriptor) => descriptor.name);
    expect(registered).toEqual(toolCatalog.map((facts) => facts.name));
    expect(new Set(registered).size).toBe(registered.length);
    expect([...toolNames]).toEqual(registered);
  });

  it('gives every tool a one-line summary of a call and of its result in each language', () => {
    for (const descriptor of toolRegistry) {
      for (const language of languages) {
        const summary = descriptor.summarize({}, language);
        const result = descriptor.summarizeResult({}, language);
        expect(typeof summary, descriptor.name).toBe('string');
        expect(summary.trim(), `${descriptor.name} summary (${language})`).not.toBe('');
        expect(result.trim(), `${descriptor.name} result (${language})`).not.toBe('');
        expect(summary).not.toContain('\n');
      }
    }
  });

  it('labels every input field of every tool in each language, and nothing else', () => {
    for (const descriptor of toolRegistry) {
      const schema = z.toJSONSchema(descriptor.inputSchema, { io: 'input' }) as { properties?: object };
      const fields = Object.keys(schema.properties ?? {}).sort();
      expect(Object.keys(descriptor.fieldLabels).sort(), descriptor.name).toEqual(fields);
      for (const label of Object.values(descriptor.fieldLabels) as { en: string; zh: string }[]) {
        expect(label.en.trim()).not.toBe('');
        expect(label.zh).toMatch(/\p{Script=Han}/u);
      }
    }
  });

  it('puts every tool in at least one worker, and only in workers that exist', () => {
    for (const descriptor of toolRegistry) {
      expect(descriptor.workers.length, descriptor.name).toBeGreaterThan(0);
      for (const worker of descriptor.workers) expect(workerNames).toContain(worker);
    }
    const held = Object.values(toolNamesByWorker).flat();
    expect(new Set(held)).toEqual(new Set(toolNames));
  });

  it('derives the write tools from what each tool declares', () => {
    expect([...writeToolNames].sort()).toEqual(
      toolRegistry
        .filter((descriptor) => descriptor.kind === 'write')
        .map((descriptor) => descriptor.name)
        .sort(),
    );
  });

  it('describes what each tool lets the assistant do, with an example, in each language', () => {
    for (const descriptor of toolRegistry) {
      for (const language of languages) {
        expect(descriptor.capability.action[language].trim(), descriptor.name).not.toBe('');
        expect(descriptor.capability.example[language].trim(), descriptor.name).not.toBe('');
      }
    }
  });

  it("gives each of the offline classifier's request labels to exactly one tool, its argument one of the tool's fields", () => {
    const requestLabels = intentLabels.filter((label) => !['greeting', 'thanks', 'other'].includes(label));
    const declared = toolRegistry.flatMap((descriptor) =>
      descriptor.offline === undefined ? [] : [descriptor.offline.intent],
    );
    expect([...declared].sort()).toEqual([...requestLabels].sort());
    for (const descriptor of toolRegistry) {
      const argument = descriptor.offline?.argument;
      if (argument === undefined) continue;
      expect(Object.keys(descriptor.fieldLabels), descriptor.name).toContain(argument.field);
      for (const language of languages) expect(argument.question[language].trim()).not.toBe('');
    }
  });
});
