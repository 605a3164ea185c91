/**
 * The example agent: reads a real file, counts its words and writes a report file. With no model
 * key set it uses a `ScriptedModel` that answers as a pure function of the conversation, so the
 * run can be resumed by another process and get the same answers.
 */
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { Agent, createAgent, type LanguageModel, type RunStore, type Tool, tool } from '@agentloom/sdk';
import { ScriptedModel } from '@agentloom/sdk/testing';
import { z } from 'zod';

/** Paths the example works with. */
export interface ExamplePaths {
  notes: string;
  report: string;
  /** One line per tool execution, to prove that no saved result is executed twice. */
  effects: string;
}

/** The offline model: read the notes, count words, write the report, answer. */
export function offlineModel(): ScriptedModel {
  return new ScriptedModel({
    respond: (request) => {
      const results = request.messages.filter((message) => message.role === 'tool');
      if (results.length === 0) return { toolCalls: [{ name: 'read_file', arguments: { path: 'notes' } }] };
      if (results.length === 1) {
        return { toolCalls: [{ name: 'count_words', arguments: { text: results[0]?.content ?? '' } }] };
      }
      if (results.length === 2) {
        return { toolCalls: [{ name: 'write_report', arguments: { summary: `The notes have ${results[1]?.content} words.` } }] };
      }
      return { text: `Report written. The notes have ${results[1]?.content} words.` };
    },
  });
}

/** Options of the example agent: where it keeps runs, which model, which files. */
export interface ExampleAgentOptions {
  store: RunStore;
  model: LanguageModel;
  paths: ExamplePaths;
  /** Called as a tool starts, before its side effect. */
  beforeToolRuns?: (name: string) => void;
}

/** The example's tools, on real files; each execution is logged to `paths.effects`. */
export function createExampleTools(options: Pick<ExampleAgentOptions, 'paths' | 'beforeToolRuns'>): Tool[] {
  const { paths } = options;
  const ran = (name: string) => {
    options.beforeToolRuns?.(name);
    appendFileSync(paths.effects, `${name}\n`);
  };
  const readFile = tool({
    name: 'read_file',
    description: 'Reads one of the known files ("notes") and returns its text.',
    parameters: z.object({ path: z.enum(['notes']) }),
    execute: () => {
      ran('read_file');
      return readFileSync(paths.notes, 'utf8');
    },
  });
  const countWords = tool({
    name: 'count_words',
    description: 'Counts the words of a text.',
    parameters: z.object({ text: z.string() }),
    execute: ({ text }) => {
      ran('count_words');
      return String(text.split(/\s+/).filter((word) => /[\p{L}\p{N}]/u.test(word)).length);
    },
  });
  const writeReport = tool({
    name: 'write_report',
    description: 'Writes the report file with the given summary.',
    parameters: z.object({ summary: z.string() }),
    execute: ({ summary }) => {
      ran('write_report');
      writeFileSync(paths.report, `${summary}\n`);
      return `wrote ${paths.report}`;
    },
  });
  return [readFile, countWords, writeReport];
}

/** Builds the agent in code, on the given store and model. */
export function createExampleAgent(options: ExampleAgentOptions): Agent {
  return new Agent({
    name: 'word-counter',
    mode: 'react',
    model: options.model,
    prompt: 'You answer questions about local files. Use the tools; never guess a count.',
    tools: createExampleTools(options),
    store: options.store,
    leaseMs: 500,
    // A call whose outcome was lost in a crash is recorded `unknown` and, being retryable, tried again.
    execution: { retry: { enabled: true, attempts: 2, waitMs: 100 } },
  });
}

/** The same agent as data: `definitions/word-counter.json`. */
export const agentDefinition: unknown = JSON.parse(
  readFileSync(new URL('../definitions/word-counter.json', import.meta.url), 'utf8'),
);

/** Builds the same agent from its JSON definition; the registry resolves the model and tool names. */
export function createExampleAgentFromDefinition(options: ExampleAgentOptions): Agent {
  return createAgent(agentDefinition, {
    models: { default: options.model },
    tools: createExampleTools(options),
    store: options.store,
  });
}
