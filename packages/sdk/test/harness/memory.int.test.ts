/**
 * The memory port (N-15, issue 37 item 3): one contract for the three fact stores, the tools as
 * an agent uses them (scoped per agent and user, a size budget on what enters the context), and a
 * SIGKILL right after `remember` wrote its fact: the taker retries the call, one fact, not two.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Agent, type FactStore, InProcessFactStore, MemoryRunStore } from '../../src/index.js';
import { PostgresFactStore } from '../../src/store/postgres/index.js';
import { SqliteFactStore } from '../../src/store/sqlite/index.js';
import { ScriptedModel } from '../../src/testing/index.js';
import { resumeAfterOwner, runScript } from '../helpers/child-process.js';
import { describeWithPostgres, dropSchema, postgresUrl, uniqueSchemaName } from '../postgres/postgres-availability.js';

const directory = mkdtempSync(path.join(tmpdir(), 'agentloom-memory-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

const alice = { agent: 'keeper', user: 'alice' };

/** The behaviour every fact store must have. */
function factStoreContract(open: () => Promise<FactStore>) {
  it('keeps facts per agent and user, newest first, ignores a second write of one id, finds by words, forgets', async () => {
    const store = await open();
    try {
      expect(await store.remember(alice, { factId: 'f1', text: 'Likes green tea', createdAt: 1 })).toEqual({ created: true });
      expect(await store.remember(alice, { factId: 'f2', text: 'Lives in Lyon', createdAt: 2 })).toEqual({ created: true });
      expect(await store.remember(alice, { factId: 'f1', text: 'a second write of f1', createdAt: 3 })).toEqual({
        created: false,
      });
      await store.remember({ agent: 'keeper', user: 'bob' }, { factId: 'f3', text: 'Likes coffee', createdAt: 3 });
      await store.remember({ agent: 'other', user: 'alice' }, { factId: 'f4', text: 'Plays chess', createdAt: 4 });
      expect((await store.recall(alice)).map((fact) => fact.text)).toEqual(['Lives in Lyon', 'Likes green tea']);
      expect((await store.recall(alice, { query: 'GREEN likes' })).map((fact) => fact.factId)).toEqual(['f1']);
      expect(await store.recall(alice, { limit: 1 })).toEqual([{ factId: 'f2', text: 'Lives in Lyon', createdAt: 2 }]);
      expect(await store.forget(alice, 'f1')).toEqual({ forgotten: true });
      expect(await store.forget(alice, 'f1')).toEqual({ forgotten: false });
      expect(await store.forget(alice, 'f3')).toEqual({ forgotten: false });
      expect((await store.recall(alice)).map((fact) => fact.factId)).toEqual(['f2']);
    } finally {
      await store.close();
    }
  });
}

describe('the fact store contract: in process', () => factStoreContract(async () => new InProcessFactStore()));
describe('the fact store contract: SQLite', () =>
  factStoreContract(async () => new SqliteFactStore({ path: path.join(directory, `facts-${Math.random()}.db`) })));
await describeWithPostgres('the fact store contract: PostgreSQL', () => {
  const schema = uniqueSchemaName('facts');
  afterAll(() => dropSchema(schema));
  factStoreContract(async () => {
    const store = new PostgresFactStore({ connectionString: postgresUrl, schema });
    await store.setup();
    return store;
  });
});

describe('memory tools in an agent run (N-15)', () => {
  it('remembers across sessions for the same user only, and bounds what recall puts into the context', async () => {
    const facts = new InProcessFactStore();
    const model = new ScriptedModel({
      respond: (request) => {
        const question = String(request.messages.findLast((message) => message.role === 'user')?.content ?? '');
        const results = request.messages.filter((message) => message.role === 'tool');
        if (results.length > 0) return { text: String(results.at(-1)?.content ?? '') };
        if (question.startsWith('note ')) return { toolCalls: [{ name: 'remember', arguments: { fact: question.slice(5) } }] };
        return { toolCalls: [{ name: 'recall', arguments: {} }] };
      },
    });
    const agent = new Agent({
      name: 'keeper',
      mode: 'react',
      model,
      prompt: 'Remember.',
      store: new MemoryRunStore(),
      memory: { store: facts, budgetCharacters: 80 },
    });
    const ask = (sessionId: string, input: string, userId?: string) =>
      agent.run({ sessionId, input, ...(userId ? { metadata: { userId } } : {}) }).result();
    await ask('s1', 'note likes green tea', 'alice');
    await ask('s2', 'note lives in Lyon near the river Saone', 'alice');
    await ask('s3', 'note likes coffee', 'bob');
    const recalled = await ask('s4', 'what do you know?', 'alice');
    expect(recalled.output).toContain('lives in Lyon');
    expect(recalled.output).not.toContain('coffee');
    // The budget of 80 characters leaves the older fact out, and says so.
    expect(recalled.output).not.toContain('green tea');
    expect(recalled.output).toContain('1 older facts not shown');
    const anonymous = await ask('s5', 'what do you know?');
    expect(anonymous.output).toContain('memory needs the user of the run');
  });
});

describe('a run killed right after remember wrote its fact (N-15)', () => {
  it('is finished by the taker with one fact, not two', { timeout: 60_000 }, async () => {
    const file = path.join(directory, 'crash.db');
    const runId = 'run-memory-crash';
    const child = await runScript(new URL('./memory-child.ts', import.meta.url).pathname, {
      MEMORY_STORE: file,
      MEMORY_RUN_ID: runId,
    });
    expect(child.frozenAt, child.stderr).toBe('fact-written');
    const { SqliteRunStore } = await import('../../src/store/sqlite/index.js');
    const store = new SqliteRunStore({ path: file });
    const facts = new SqliteFactStore({ path: file });
    try {
      // Like a real model, it writes the fact again when the first call's outcome is unknown.
      const model = new ScriptedModel({
        respond: (request) => {
          const results = request.messages.filter((message) => message.role === 'tool');
          const last = String(results.at(-1)?.content ?? '');
          return results.length === 0 || (results.length === 1 && !last.includes('remembered'))
            ? { toolCalls: [{ name: 'remember', arguments: { fact: 'Likes  green tea' } }] }
            : { text: 'noted' };
        },
      });
      const agent = new Agent({
        name: 'keeper',
        mode: 'react',
        model,
        prompt: 'Remember what matters.',
        store,
        memory: { store: facts },
        leaseMs: 1_000,
      });
      const result = await resumeAfterOwner(() => agent.run({ runId, sessionId: `session-${runId}` }).result());
      expect(result).toMatchObject({ status: 'succeeded', output: 'noted' });
      expect(await facts.recall({ agent: 'keeper', user: 'user-1' })).toEqual([
        expect.objectContaining({ text: 'likes green tea' }),
      ]);
      // The taker's model saw the lost call's outcome as unknown and wrote the fact again.
      expect(model.requestCount).toBe(2);
    } finally {
      await store.close();
      await facts.close();
    }
  });
});
