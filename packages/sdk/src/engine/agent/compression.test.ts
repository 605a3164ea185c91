import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { tool } from '../../capabilities/tools/tool.js';
import { RunClient } from '../../client/run-client.js';
import type { Message } from '../../core/messages.js';
import type { ModelRequest } from '../../model/language-model.js';
import { MemoryRunStore } from '../../store/memory/memory-run-store.js';
import { ScriptedModel, type ScriptedReply } from '../../testing/scripted-model.js';
import { Agent } from './agent.js';
import { COMPRESSION_SYSTEM_PROMPT } from './compression/index.js';
import type { TokenCounter } from './context-options.js';

const note = tool({
  name: 'note',
  description: 'Takes a note.',
  parameters: z.object({ n: z.number() }),
  execute: ({ n }) => `note ${n}`,
});
/** Ten "tokens" per message: compression thresholds become message counts, easy to reason about. */
const tenPerMessage: TokenCounter = ({ messages }) => messages.length * 10;
const toolCount = (messages: readonly Message[]) => messages.filter((message) => message.role === 'tool').length;

/** A business model that takes `steps` notes, then answers; and a compression agent that summarises. */
function modelWith(
  steps: number,
  compression: (request: ModelRequest) => ScriptedReply = (request) => ({
    text: `summary of ${request.messages[0]?.content.length} chars`,
  }),
) {
  let notes = 0;
  return new ScriptedModel({
    respond: (request) => {
      if (request.system === COMPRESSION_SYSTEM_PROMPT) return compression(request);
      const last = request.messages.at(-1);
      if (last?.role === 'tool') notes = Number(last.content.slice(5)) + 1;
      else notes = 0;
      return notes >= steps ? { text: `done after ${notes} notes` } : { toolCalls: [{ name: 'note', arguments: { n: notes } }] };
    },
  });
}

/** Every tool result in a request follows an assistant message that made that call (H-8). */
function pairsIntact(messages: readonly Message[]): boolean {
  const open = new Set<string>();
  for (const message of messages) {
    if (message.role === 'assistant') for (const call of message.toolCalls ?? []) open.add(call.id);
    if (message.role === 'tool' && !open.has(message.toolCallId)) return false;
  }
  return true;
}

describe('compression (H-5…H-11, C-2)', () => {
  it('compresses twice in one run, keeps the question verbatim and never splits a tool pair', async () => {
    const store = new MemoryRunStore();
    const model = modelWith(8);
    const agent = new Agent({
      name: 'c',
      mode: 'react',
      model,
      prompt: 'p',
      tools: [note],
      store,
      context: {
        windowTokens: 100,
        compressionThreshold: 0.8,
        countTokens: tenPerMessage,
        compressionPrompt: 'Keep note numbers.',
      },
    });
    const run = agent.run({ sessionId: 's', input: 'take eight notes' });
    const result = await run.result();
    expect(result).toMatchObject({ status: 'succeeded', output: 'done after 8 notes', loops: 9 });
    const journal = await store.readJournal(run.runId);
    const committed = journal
      .filter((entry) => entry.type === 'compression-committed')
      .map((entry) => entry.data as { coveredUpTo: number });
    expect(committed.length).toBe(2);
    expect(committed[1]?.coveredUpTo).toBeGreaterThan(committed[0]?.coveredUpTo ?? 0);
    const business = model.requests.filter((request) => request.system === 'p');
    for (const request of business) {
      expect(tenPerMessage({ system: '', messages: request.messages, tools: [] })).toBeLessThanOrEqual(80);
      expect(pairsIntact(request.messages)).toBe(true);
      expect(request.messages.filter((message) => message.content === 'take eight notes')).toHaveLength(1);
    }
    const afterFirst = business.find((request) => request.messages[0]?.content.startsWith('[Summary'));
    expect(afterFirst?.messages[1]).toEqual({ role: 'user', content: 'take eight notes' });
    // The compression agent: its own prompt, the user's extra prompt in its user message, no tools.
    const compressions = model.requests.filter((request) => request.system === COMPRESSION_SYSTEM_PROMPT);
    expect(compressions).toHaveLength(2);
    expect(compressions[0]?.messages[0]?.content.startsWith('Keep note numbers.')).toBe(true);
    expect(compressions[0]?.tools).toEqual([]);
    expect(compressions[1]?.messages[0]?.content).toContain('[Summary of the earlier conversation');
    // Compression is not a business loop; raw history is never shortened (H-4).
    expect(journal.filter((entry) => entry.type === 'loop-started')).toHaveLength(9);
    const raw = (await new RunClient({ store: agent.store }).readSessionHistory('s'))[0]?.messages ?? [];
    expect(toolCount(raw)).toBe(8);
  });

  it('ends the run over-window-after-compression instead of sending an oversized request (H-10)', async () => {
    const model = modelWith(10);
    // The question alone is protected and weighs 90 of a 100-token window: compression cannot help.
    const heavyQuestion: TokenCounter = ({ messages }) =>
      messages.reduce((total, message) => total + (message.content === 'heavy' ? 90 : 10), 0);
    const agent = new Agent({
      name: 'c',
      mode: 'react',
      model,
      prompt: 'p',
      tools: [note],
      context: { windowTokens: 100, countTokens: heavyQuestion },
    });
    const result = await agent.run({ sessionId: 's', input: 'heavy' }).result();
    expect(result).toMatchObject({ status: 'failed', reason: 'over-window-after-compression' });
    const business = model.requests.filter((request) => request.system === 'p');
    for (const request of business)
      expect(heavyQuestion({ system: '', messages: request.messages, tools: [] })).toBeLessThanOrEqual(100);
    expect(model.requests.filter((request) => request.system === COMPRESSION_SYSTEM_PROMPT)).toHaveLength(1);
  });

  it('ends the run compression-failed when the compression agent fails, without dropping context (H-9)', async () => {
    const store = new MemoryRunStore();
    const model = modelWith(10, () => ({ error: { kind: 'server', status: 500, message: 'summary service down' } }));
    const agent = new Agent({
      name: 'c',
      mode: 'react',
      model,
      prompt: 'p',
      tools: [note],
      store,
      context: { windowTokens: 100, countTokens: tenPerMessage },
    });
    const run = agent.run({ sessionId: 's', input: 'go' });
    const result = await run.result();
    expect(result).toMatchObject({ status: 'failed', reason: 'compression-failed', failure: { kind: 'server' } });
    const journal = await store.readJournal(run.runId);
    expect(journal.some((entry) => entry.type === 'compression-started')).toBe(true);
    expect(journal.some((entry) => entry.type === 'compression-committed')).toBe(false);
  });

  it('compresses each role in its own context only (H-11)', async () => {
    const store = new MemoryRunStore();
    let notes = 0;
    const model = new ScriptedModel({
      respond: (request) => {
        if (request.system === COMPRESSION_SYSTEM_PROMPT) return { text: 'executor summary' };
        if (request.system === 'planner') {
          return request.messages.some((message) => message.role === 'tool')
            ? { text: 'planned' }
            : { toolCalls: [{ name: 'worker', arguments: { task: 'take notes' } }] };
        }
        const last = request.messages.at(-1);
        notes = last?.role === 'tool' ? Number(last.content.slice(5)) + 1 : 0;
        return notes >= 6 ? { text: 'worker done' } : { toolCalls: [{ name: 'note', arguments: { n: notes } }] };
      },
    });
    const agent = new Agent({
      name: 'team',
      mode: 'plan-executor',
      model,
      store,
      planner: { prompt: 'planner' },
      executors: [{ name: 'worker', description: 'Notes.', prompt: 'worker', tools: [note] }],
      context: { windowTokens: 100, countTokens: tenPerMessage },
    });
    const run = agent.run({ sessionId: 's', input: 'go' });
    expect((await run.result()).output).toBe('planned');
    const compressed = (await store.readJournal(run.runId)).filter((entry) => entry.type === 'compression-committed');
    expect(compressed.length).toBeGreaterThan(0);
    expect(compressed.every((entry) => entry.taskId === 'entry/1/0')).toBe(true);
  });
});
