/** The published JSON Schema files: up to date with the zod schemas, accepting the samples and the corpus, refusing what zod refuses. */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { compileCatalog, intentCatalogSchema, renderIntentSchemas } from '@agentloom/intent';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';

const schemas = fileURLToPath(new URL('../schemas/', import.meta.url));
const corpus = fileURLToPath(new URL('../corpus/', import.meta.url));
const readJson = (path: string): unknown => JSON.parse(readFileSync(path, 'utf8'));
const ajv = new Ajv2020({ allErrors: true, strict: true, allowUnionTypes: true });
const validateCatalog = ajv.compile(readJson(`${schemas}intent-catalog.schema.json`) as object);
const validateCommands = ajv.compile(readJson(`${schemas}intent-commands.schema.json`) as object);
const validateCorpus = ajv.compile(readJson(`${schemas}intent-corpus.schema.json`) as object);

describe('the JSON Schema files of @agentloom/intent', () => {
  it('are up to date with the zod schemas (run `npm run schemas --workspace=@agentloom/intent` when this fails)', () => {
    for (const [name, text] of Object.entries(renderIntentSchemas()))
      expect(readFileSync(`${schemas}${name}`, 'utf8'), name).toBe(text);
  });

  it('accept every sample catalog and the shipped corpora, which also compile', () => {
    const samples = readdirSync(`${schemas}samples`).filter((name) => name.endsWith('.json'));
    expect(samples.length).toBeGreaterThanOrEqual(2);
    for (const name of samples) {
      const catalog = readJson(`${schemas}samples/${name}`);
      expect(validateCatalog(catalog) ? [] : validateCatalog.errors, name).toEqual([]);
      expect(() => compileCatalog(catalog), name).not.toThrow();
    }
    for (const name of readdirSync(corpus).filter((file) => file.endsWith('.json'))) {
      const file = readJson(`${corpus}${name}`) as { catalog: unknown; dialogues: Array<{ turns: Array<{ expect: unknown }> }> };
      expect(validateCorpus(file) ? [] : validateCorpus.errors?.slice(0, 3), name).toEqual([]);
      expect(validateCatalog(file.catalog) ? [] : validateCatalog.errors, name).toEqual([]);
      for (const turn of file.dialogues.flatMap((dialogue) => dialogue.turns)) expect(validateCommands(turn.expect)).toBe(true);
    }
  });

  it('refuse broken catalogs and commands, as the zod schemas do', () => {
    const sample = readJson(`${schemas}samples/support-desk-catalog.json`) as { actions: Array<Record<string, unknown>> };
    const broken = [
      { ...sample, formatVersion: 2 },
      { ...sample, actions: [] },
      { ...sample, unknownSetting: true },
      { ...sample, actions: [{ ...sample.actions[0], ref: { kind: 'robot', id: 'x' } }] },
      { ...sample, actions: [{ ...sample.actions[0], slots: [{ name: 'x', type: 'colour' }] }] },
      { ...sample, similarity: { threshold: 2 } },
    ];
    for (const catalog of broken) {
      expect(validateCatalog(catalog), JSON.stringify(catalog).slice(0, 60)).toBe(false);
      expect(intentCatalogSchema.safeParse(catalog).success).toBe(false);
    }
    expect(
      validateCommands([
        { type: 'start', action: { kind: 'agent', id: 'a' } },
        { type: 'setSlot', name: 'n', value: 3 },
      ]),
    ).toBe(true);
    for (const commands of [
      [{ type: 'execute' }],
      [{ type: 'start' }],
      [{ type: 'clarify', options: [] }],
      [{ type: 'cancel', extra: 1 }],
    ]) {
      expect(validateCommands(commands), JSON.stringify(commands)).toBe(false);
    }
  });
});
