/**
 * The scenario the crash tests run in child processes: a ReAct agent with tools that count their
 * side effects in a file, and a scripted model that answers as a pure function of the request so
 * that every process gets the same answers.
 */
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { z } from 'zod';
import { Agent, type RunStore, tool } from '../../src/index.js';
import type { ModelRequest } from '../../src/model/language-model.js';
import { ScriptedModel, type ScriptedReply } from '../../src/testing/index.js';

/** Settings of one crash scenario, shared by the parent test and the child process. */
export interface ScenarioSettings {
  /** File where every tool execution appends one line: `<operationId> <tool> <attempt>`. */
  effectsPath: string;
  parallel: boolean;
  retry: boolean;
  /** Freeze (for the parent to SIGKILL) at this point: `append:<n>`, `tool:<name>:<attempt>`, `model:<request>`. */
  freezeAt?: string;
}

/** Freezes this process synchronously after telling the parent where; the parent then kills it. */
export function freeze(label: string): void {
  process.stdout.write(`FROZEN ${label}\n`);
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 60_000);
  throw new Error(`not killed at ${label}`);
}

function effects(path: string): string[] {
  return existsSync(path) ? readFileSync(path, 'utf8').split('\n').filter(Boolean) : [];
}

function recordEffect(settings: ScenarioSettings, operationId: string, name: string, attempt: number): void {
  appendFileSync(settings.effectsPath, `${operationId} ${name} ${attempt}\n`);
  if (settings.freezeAt === `tool:${name}:${attempt}`) freeze(settings.freezeAt);
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Builds the tools of the scenario. */
function scenarioTools(settings: ScenarioSettings) {
  const note = tool({
    name: 'write_note',
    description: 'Writes a note.',
    parameters: z.object({ text: z.string() }),
    execute: async ({ text }, context) => {
      recordEffect(settings, context.operationId, 'write_note', context.attempt);
      return `note saved: ${text}`;
    },
  });
  const flaky = tool({
    name: 'flaky_lookup',
    description: 'Looks something up; the first attempt of each call fails with a reset connection.',
    parameters: z.object({ key: z.string() }),
    execute: async ({ key }, context) => {
      const earlier = effects(settings.effectsPath).filter((line) => line.startsWith(`${context.operationId} `)).length;
      recordEffect(settings, context.operationId, 'flaky_lookup', context.attempt);
      if (earlier === 0) throw Object.assign(new Error('connection reset'), { code: 'ECONNRESET' });
      return `value of ${key} is 42`;
    },
  });
  const slow = tool({
    name: 'slow_step',
    description: 'Takes some milliseconds.',
    parameters: z.object({ name: z.string(), ms: z.number() }),
    execute: async ({ name, ms }, context) => {
      await wait(ms);
      recordEffect(settings, context.operationId, 'slow_step', context.attempt);
      return `${name} done`;
    },
  });
  const charge = tool({
    name: 'charge',
    description: 'Charges an amount.',
    parameters: z.object({ amount: z.number() }),
    execute: async ({ amount }, context) => {
      recordEffect(settings, context.operationId, 'charge', context.attempt);
      return `charged ${amount}`;
    },
  });
  return [note, flaky, slow, charge];
}

/** The model's script: a pure function of the conversation so far. */
export function scriptedAnswer(request: ModelRequest): ScriptedReply {
  const results = request.messages.filter((message) => message.role === 'tool');
  const assistantTurns = request.messages.filter((message) => message.role === 'assistant').length;
  switch (assistantTurns) {
    case 0:
      return {
        text: 'I will take notes and look things up.',
        toolCalls: [
          { name: 'write_note', arguments: { text: 'first' } },
          { name: 'flaky_lookup', arguments: { key: 'answer' } },
        ],
      };
    case 1:
      return {
        toolCalls: [
          { name: 'slow_step', arguments: { name: 'a', ms: 60 } },
          { name: 'slow_step', arguments: { name: 'b', ms: 5 } },
          { name: 'slow_step', arguments: { name: 'c', ms: 30 } },
        ],
      };
    case 2:
      return { toolCalls: [{ name: 'charge', arguments: { amount: 5 } }] };
    default:
      return { text: `Finished: ${results.map((message) => message.content).join(' | ')}` };
  }
}

/** Builds the scenario's agent on `store`. */
export function scenarioAgent(settings: ScenarioSettings, store: RunStore): { agent: Agent; model: ScriptedModel } {
  let requests = 0;
  const model = new ScriptedModel({
    respond: (request) => {
      requests += 1;
      if (settings.freezeAt === `model:${requests}`) freeze(settings.freezeAt);
      return scriptedAnswer(request);
    },
  });
  const agent = new Agent({
    name: 'crash-scenario',
    mode: 'react',
    model,
    prompt: 'You are a careful assistant.',
    tools: scenarioTools(settings),
    store,
    leaseMs: 300,
    execution: {
      parallel: settings.parallel,
      retry: { enabled: settings.retry, attempts: 3, waitMs: 150 },
      toolTimeoutMs: 5_000,
    },
  });
  return { agent, model };
}
