/**
 * Model fallback chains (N-15, issue 37 item 2): a final failure that another model may not share
 * moves the run to the next model of the chain, journaled, so a takeover stays there; usage is
 * split by model; a failure every model would share ends the run as before (S-10).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Failure } from '../../src/core/failure.js';
import { Agent, type AgentRunEvent, createAgent, MemoryRunStore, tool } from '../../src/index.js';
import { SqliteRunStore } from '../../src/store/sqlite/index.js';
import { ScriptedModel } from '../../src/testing/index.js';
import { resumeAfterOwner, runScript } from '../helpers/child-process.js';

const lookup = tool({ name: 'lookup', description: 'Looks up.', parameters: z.object({}), execute: () => 'found' });
const overloaded: Failure = { kind: 'server', status: 529, message: 'overloaded' };

/** Calls `lookup` once, then answers with its own id. */
function answering(modelId: string) {
  return new ScriptedModel({
    modelId,
    respond: (request) =>
      request.messages.some((message) => message.role === 'tool')
        ? { text: `answer of ${modelId}` }
        : { toolCalls: [{ name: 'lookup' }] },
  });
}

describe('a model fallback chain (N-15)', () => {
  it('moves to the next model after a final server failure, stays there, and splits usage by model', async () => {
    const primary = new ScriptedModel({
      modelId: 'primary',
      respond: (_request, call) => (call.index === 0 ? { toolCalls: [{ name: 'lookup' }] } : { error: overloaded }),
    });
    const backup = answering('backup');
    const store = new MemoryRunStore();
    const events: AgentRunEvent[] = [];
    const agent = new Agent({
      name: 'chain',
      mode: 'react',
      model: primary,
      fallbackModels: [backup],
      prompt: 'Answer.',
      tools: [lookup],
      store,
      execution: { retry: { enabled: false } },
    });
    const run = agent.run({ sessionId: 's', input: 'go' });
    for await (const event of run.events()) events.push(event);
    const result = await run.result();
    expect(result).toMatchObject({ status: 'succeeded', output: 'answer of backup' });
    expect(primary.requestCount).toBe(2);
    expect(backup.requestCount).toBe(1);
    expect(Object.keys(result.usageByModel ?? {}).sort()).toEqual(['scripted/backup', 'scripted/primary']);
    const fallbacks = events.filter((event) => event.type === 'model-fallback');
    expect(fallbacks).toEqual([
      expect.objectContaining({
        from: { provider: 'scripted', modelId: 'primary' },
        to: { provider: 'scripted', modelId: 'backup' },
        failure: expect.objectContaining({ kind: 'server', status: 529 }),
      }),
    ]);
    const finishes = events.filter((event) => event.type === 'model-call-finish');
    expect(finishes.map((event) => (event.type === 'model-call-finish' ? event.model?.modelId : undefined))).toEqual([
      'primary',
      'backup',
    ]);
  });

  it('takes a context too long for one model to the next, and walks the whole chain', async () => {
    const tooLong: Failure = { kind: 'invalid-request', status: 400, code: 'context_length_exceeded', message: 'too long' };
    const small = new ScriptedModel({ modelId: 'small', respond: () => ({ error: tooLong }) });
    const medium = new ScriptedModel({ modelId: 'medium', respond: () => ({ error: overloaded }) });
    const large = answering('large');
    const agent = new Agent({
      name: 'chain',
      mode: 'react',
      model: small,
      fallbackModels: [medium, large],
      prompt: 'Answer.',
      tools: [lookup],
      store: new MemoryRunStore(),
      execution: { retry: { enabled: false } },
    });
    const result = await agent.run({ sessionId: 's', input: 'go' }).result();
    expect(result).toMatchObject({ status: 'succeeded', output: 'answer of large' });
    expect([small.requestCount, medium.requestCount, large.requestCount]).toEqual([1, 1, 2]);
  });

  it('ends the run model-failed for a failure every model would share, and when the chain runs out', async () => {
    const refused: Failure = { kind: 'invalid-request', status: 400, message: 'bad request' };
    const first = new ScriptedModel({ modelId: 'first', respond: () => ({ error: refused }) });
    const second = answering('second');
    const base = { name: 'chain', mode: 'react' as const, prompt: 'Answer.', execution: { retry: { enabled: false } } };
    const refusedRun = await new Agent({ ...base, model: first, fallbackModels: [second], store: new MemoryRunStore() })
      .run({ sessionId: 's', input: 'go' })
      .result();
    expect(refusedRun).toMatchObject({ status: 'failed', reason: 'model-failed', failure: { kind: 'invalid-request' } });
    expect(second.requestCount).toBe(0);

    const down = new ScriptedModel({ modelId: 'down', respond: () => ({ error: overloaded }) });
    const alsoDown = new ScriptedModel({
      modelId: 'also-down',
      respond: () => ({ error: { kind: 'connection', message: 'refused' } }),
    });
    const exhausted = await new Agent({ ...base, model: down, fallbackModels: [alsoDown], store: new MemoryRunStore() })
      .run({ sessionId: 's', input: 'go' })
      .result();
    expect(exhausted).toMatchObject({ status: 'failed', reason: 'model-failed', failure: { kind: 'connection' } });
  });

  it('is declared by name in a definition; an unknown name is a problem at its path', () => {
    const registry = { models: { fast: answering('fast'), large: answering('large') } };
    const definition = { formatVersion: 1, kind: 'agent', name: 'a', mode: 'react', model: 'fast', prompt: 'p' };
    expect(() => createAgent({ ...definition, fallbackModels: ['large'] }, registry)).not.toThrow();
    expect(() => createAgent({ ...definition, fallbackModels: ['large', 'huge'] }, registry)).toThrow(/fallbackModels\.1/);
  });
});

describe('a run killed after it moved to its fallback model (N-15)', () => {
  const directory = mkdtempSync(path.join(tmpdir(), 'agentloom-fallback-'));
  afterAll(() => rmSync(directory, { recursive: true, force: true }));

  it('is finished by the taker on the fallback model, the failed model never called again', { timeout: 60_000 }, async () => {
    const file = path.join(directory, 'runs.sqlite');
    const runId = 'run-fallback-crash';
    const child = await runScript(new URL('./fallback-child.ts', import.meta.url).pathname, {
      FALLBACK_STORE: `sqlite:${file}`,
      FALLBACK_RUN_ID: runId,
    });
    expect(child.frozenAt, child.stderr).toBe('backup-called');

    const store = new SqliteRunStore({ path: file });
    try {
      const primary = new ScriptedModel({ modelId: 'primary', respond: () => ({ text: 'the primary again' }) });
      const backup = new ScriptedModel({ modelId: 'backup', respond: () => ({ text: 'the backup answers' }) });
      const agent = new Agent({
        name: 'fallback',
        mode: 'react',
        model: primary,
        fallbackModels: [backup],
        prompt: 'Answer.',
        store,
        leaseMs: 1_000,
        execution: { retry: { enabled: false } },
      });
      const result = await resumeAfterOwner(() => agent.run({ runId, sessionId: `session-${runId}` }).result());
      expect(result).toMatchObject({ status: 'succeeded', output: 'the backup answers' });
      expect(primary.requestCount).toBe(0);
      expect(backup.requestCount).toBe(1);
      const journal = await store.readJournal(runId);
      expect(journal.filter((entry) => entry.type === 'model-fallback')).toHaveLength(1);
    } finally {
      await store.close();
    }
  });
});
