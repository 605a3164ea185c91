import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import * as ajvFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { tool } from '../capabilities/tools/tool.js';
import { MemoryRunStore } from '../store/memory/memory-run-store.js';
import { ScriptedModel } from '../testing/scripted-model.js';
import { agentDefinitionSchema } from './agent-definition.js';
import { createAgent } from './create-agent.js';
import { createWorkflow } from './create-workflow.js';
import { renderDefinitionSchemas } from './definition-json-schemas.js';
import { teamDefinitionSchema } from './team-definition.js';
import { workflowDefinitionSchema } from './workflow-definition.js';

const schemasDirectory = fileURLToPath(new URL('../../schemas/', import.meta.url));
const examplesDirectory = fileURLToPath(new URL('../../../../examples/', import.meta.url));
const readJson = (path: string): unknown => JSON.parse(readFileSync(path, 'utf8'));

const addFormats = ((ajvFormats as unknown as { default?: unknown }).default ?? ajvFormats) as (ajv: Ajv2020) => Ajv2020;
const ajv = addFormats(new Ajv2020({ allErrors: true, strict: true }));
const validateAgent = ajv.compile(readJson(`${schemasDirectory}agent-definition.schema.json`) as object);
const validateWorkflow = ajv.compile(readJson(`${schemasDirectory}workflow-definition.schema.json`) as object);
const validateTeam = ajv.compile(readJson(`${schemasDirectory}team-definition.schema.json`) as object);

/** Every sample definition: the SDK's own and those of the examples that have definitions (intent-router has none). */
function samples(): Array<{ file: string; definition: unknown }> {
  const files = readdirSync(`${schemasDirectory}samples`).map((name) => `${schemasDirectory}samples/${name}`);
  for (const example of readdirSync(examplesDirectory)) {
    const directory = `${examplesDirectory}${example}/definitions`;
    if (!existsSync(directory)) continue;
    for (const name of readdirSync(directory)) files.push(`${directory}/${name}`);
  }
  return files.filter((file) => file.endsWith('.json')).map((file) => ({ file, definition: readJson(file) }));
}

describe('the JSON Schema files of the definition format', () => {
  it('are up to date with the zod schemas (run `npm run schemas` when this fails)', () => {
    for (const [name, text] of Object.entries(renderDefinitionSchemas())) {
      expect(readFileSync(`${schemasDirectory}${name}`, 'utf8'), name).toBe(text);
    }
  });

  it('accept every sample definition, as the zod schemas do', () => {
    const all = samples();
    expect(all.length).toBeGreaterThanOrEqual(6);
    for (const { file, definition } of all) {
      const kind = (definition as { kind?: string }).kind;
      const validate = kind === 'workflow' ? validateWorkflow : kind === 'team' ? validateTeam : validateAgent;
      expect(validate(definition) ? [] : validate.errors, file).toEqual([]);
      const zodSchema =
        kind === 'workflow' ? workflowDefinitionSchema : kind === 'team' ? teamDefinitionSchema : agentDefinitionSchema;
      expect(zodSchema.safeParse(definition).error?.issues ?? [], file).toEqual([]);
    }
  });

  it('refuse broken definitions, as the zod schemas do', () => {
    const agent = readJson(`${schemasDirectory}samples/support-agent.json`) as Record<string, unknown>;
    const broken = [
      { ...agent, formatVersion: 2 },
      { ...agent, mode: 'swarm' },
      { ...agent, tools: 'search_knowledge' },
      { ...agent, unknownSetting: true },
      { ...agent, execution: { maxLoops: 0 } },
      { ...agent, hooks: { BeforeEverything: ['audit-log'] } },
    ];
    for (const definition of broken) {
      expect(validateAgent(definition), JSON.stringify(definition).slice(0, 80)).toBe(false);
      expect(agentDefinitionSchema.safeParse(definition).success).toBe(false);
    }
    const workflow = readJson(`${schemasDirectory}samples/review-workflow.json`) as Record<string, unknown>;
    const brokenWorkflow = { ...workflow, state: { topic: { reducer: 'replace', schema: {} } } };
    expect(validateWorkflow(brokenWorkflow)).toBe(false);
    expect(workflowDefinitionSchema.safeParse(brokenWorkflow).success).toBe(false);
    const team = readJson(`${schemasDirectory}samples/support-team.json`) as Record<string, unknown>;
    const brokenTeams = [
      { ...team, topology: { kind: 'swarm' } },
      { ...team, termination: { kind: 'max-turns', turns: 0 } },
      { ...team, termination: { kind: 'or', any: [{ kind: 'sometime' }] } },
      { ...team, members: [{ name: 'user', model: 'default', instructions: 'x' }] },
    ];
    for (const definition of brokenTeams) {
      expect(validateTeam(definition), JSON.stringify(definition).slice(0, 80)).toBe(false);
      expect(teamDefinitionSchema.safeParse(definition).success).toBe(false);
    }
  });

  it('describe samples that build: the review workflow with a registry of every name it uses', () => {
    const model = new ScriptedModel({ respond: () => ({ text: 'ok' }) });
    // The workflow and the agents of its nodes share one store.
    const store = new MemoryRunStore();
    const echo = (name: string, parameters: z.ZodObject) =>
      tool({ name, description: `The ${name} tool.`, parameters, execute: () => 'ok' });
    const reviewer = createAgent(
      { formatVersion: 1, kind: 'agent', name: 'reviewer', mode: 'react', model: 'default', prompt: 'Review.' },
      { models: { default: model }, store },
    );
    const workflow = createWorkflow(readJson(`${schemasDirectory}samples/review-workflow.json`), {
      models: { default: model },
      tools: [
        echo('split_sections', z.object({ text: z.string() })),
        echo('score_reviews', z.object({ reviews: z.array(z.string()) })),
        echo('record_score', z.object({ score: z.number() })),
      ],
      mcpServers: { cms: [echo('publish', z.object({ text: z.string(), channel: z.string() }))] },
      agents: { reviewer, editor: reviewer },
      inputs: { 'escalation-brief': (state) => `Escalate: ${String(state.draft)}` },
      routes: { 'notify-route': () => 'END' },
      reducers: {
        'sum-votes': { initial: () => ({}), merge: (current, update) => ({ ...(current as object), ...(update as object) }) },
      },
      store,
    });
    expect(workflow).toBeDefined(); // it built: every name resolved and the graph validated (W-4)
  });
});
