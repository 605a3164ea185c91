import pg from 'pg';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { describeWithPostgres, dropSchema, postgresUrl, uniqueSchemaName } from '../../../test/postgres/postgres-availability.js';
import { RunClient } from '../../client/run-client.js';
import { InvalidConfigurationError, StaleEpochError, StoreFailureError } from '../../core/errors/index.js';
import { Agent } from '../../engine/agent/agent.js';
import { runStoreContract } from '../../testing/run-store-contract.js';
import { ScriptedModel } from '../../testing/scripted-model.js';
import type { AcquireRequest } from '../run-store.js';
import { postgresMigrations } from './migrations.js';
import { PostgresRunStore } from './postgres-run-store.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function request(overrides: Partial<AcquireRequest> = {}): AcquireRequest {
  return {
    runId: 'run-1',
    sessionId: 'session-1',
    ownerId: 'owner-a',
    leaseMs: 60_000,
    deadlineAt: Date.now() + 3_600_000,
    initialEntries: [{ type: 'run-started', data: { input: 'question' } }],
    ...overrides,
  };
}

await describeWithPostgres('PostgresRunStore', () => {
  runStoreContract({
    name: 'PostgresRunStore',
    create: async () => {
      const store = new PostgresRunStore({ connectionString: postgresUrl, schema: uniqueSchemaName('contract'), poolSize: 4 });
      await store.setup();
      return store;
    },
    destroy: (store) => dropSchema((store as PostgresRunStore).schema),
  });

  describe('PostgresRunStore on a real server', () => {
    const opened: PostgresRunStore[] = [];
    /** A store on a fresh schema (set up), dropped after the test. */
    async function freshStore(schema = uniqueSchemaName('store'), setup = true): Promise<PostgresRunStore> {
      const store = new PostgresRunStore({ connectionString: postgresUrl, schema, poolSize: 4 });
      opened.push(store);
      if (setup) await store.setup();
      return store;
    }
    afterEach(async () => {
      const schemas = new Set(opened.map((store) => store.schema));
      await Promise.all(opened.splice(0).map((store) => store.close()));
      for (const schema of schemas) await dropSchema(schema);
      vi.restoreAllMocks();
    });

    it('migrates one schema exactly once when several processes call setup() at once', async () => {
      const schema = uniqueSchemaName('setup');
      const stores = await Promise.all([1, 2, 3, 4].map(() => freshStore(schema, false)));
      await Promise.all(stores.map((store) => store.setup()));
      await stores[0]?.setup();
      const client = new pg.Client({ connectionString: postgresUrl });
      await client.connect();
      const versions = await client.query(`SELECT version FROM ${client.escapeIdentifier(schema)}.agentloom_migrations`);
      await client.end();
      expect(versions.rows.map((row) => row.version)).toEqual(postgresMigrations.map((_, index) => index + 1));
      expect((await stores[1]?.acquire(request()))?.outcome).toBe('created');
    });

    it('migrates a version-2 schema: its finished runs, without digests, are read from their journals (issue 18)', async () => {
      const schema = uniqueSchemaName('v2');
      const client = new pg.Client({ connectionString: postgresUrl });
      await client.connect();
      try {
        await client.query(`CREATE SCHEMA ${client.escapeIdentifier(schema)}`);
        await client.query(`SET search_path TO ${client.escapeIdentifier(schema)}`);
        await client.query(
          'CREATE TABLE agentloom_migrations (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())',
        );
        for (const [index, migration] of postgresMigrations.slice(0, 2).entries()) {
          await client.query(migration);
          await client.query('INSERT INTO agentloom_migrations (version) VALUES ($1)', [index + 1]);
        }
        await client.query(
          `INSERT INTO agentloom_runs (run_id, session_id, status, owner_id, epoch, lease_expires_at, deadline_at, loops_used,
             last_sequence, created_at, updated_at, result, kind, name, metadata)
           VALUES ('old', 's', 'succeeded', NULL, 1, 0, 0, 1, 1, 1, 1, '{"status":"succeeded"}', 'agent', 'a', '{}')`,
        );
        await client.query(
          `INSERT INTO agentloom_journal (run_id, sequence, epoch, type, task_id, data, at) VALUES ('old', 1, 1, 'run-started', NULL, '{"input":"q"}', 1)`,
        );
      } finally {
        await client.end();
      }
      const store = await freshStore(schema);
      const [read] = await store.readSession({ sessionId: 's' });
      expect(read?.digest).toBeUndefined();
      expect(read?.journal).toEqual([{ sequence: 1, epoch: 1, type: 'run-started', data: { input: 'q' }, at: 1 }]);
      expect(read?.run).toMatchObject({ runId: 'old', status: 'succeeded', lastSequence: 1 });
    });

    it('refuses a schema written by a newer SDK, and says so before setup() ran', async () => {
      const store = await freshStore();
      const client = new pg.Client({ connectionString: postgresUrl });
      await client.connect();
      await client.query(`INSERT INTO ${client.escapeIdentifier(store.schema)}.agentloom_migrations (version) VALUES (999)`);
      await client.end();
      await expect(store.setup()).rejects.toThrow(/version 999, newer than this SDK supports/);
      const unset = await freshStore(uniqueSchemaName('unset'), false);
      const error = await unset.getRun('x').catch((caught: unknown) => caught);
      expect(StoreFailureError.isInstance(error)).toBe(true);
      expect((error as Error).message).toMatch(/has setup\(\) run on schema/);
    });

    it('rejects an invalid configuration at construction, before connecting', () => {
      const invalid = [
        {},
        { connectionString: postgresUrl, pool: new pg.Pool() },
        { connectionString: postgresUrl, schema: 'Robert"; DROP TABLE x; --' },
        { connectionString: postgresUrl, poolSize: 0 },
        { connectionString: postgresUrl, idleTransactionTimeoutMs: -1 },
      ];
      for (const options of invalid) {
        expect(() => new PostgresRunStore(options as never)).toThrow(InvalidConfigurationError);
      }
    });

    it('uses a pool it is given and leaves it open on close', async () => {
      const schema = uniqueSchemaName('pool');
      const pool = new pg.Pool({ connectionString: postgresUrl, max: 2 });
      const store = new PostgresRunStore({ pool, schema });
      await store.setup();
      expect((await store.acquire(request())).outcome).toBe('created');
      await store.close();
      expect((await pool.query('SELECT 1 AS one')).rows[0]).toEqual({ one: 1 });
      await pool.end();
      await dropSchema(schema);
    });

    it('reads a session with one generic plan per connection, never a custom plan per call (issue 34)', async () => {
      const schema = uniqueSchemaName('plans');
      // One connection, so that its prepared statements are the ones this test reads back.
      const pool = new pg.Pool({ connectionString: postgresUrl, max: 1 });
      const store = new PostgresRunStore({ pool, schema });
      await store.setup();
      await store.acquire(request());
      // More calls than PostgreSQL's five custom plans before it weighs a generic one.
      for (let call = 0; call < 8; call += 1) {
        const reads = await store.readSession({ sessionId: call % 2 ? 'session-1' : 'session-2', journalsOf: ['run-1'] });
        expect(reads.map((read) => read.run.runId)).toEqual(call % 2 ? ['run-1'] : []);
      }
      const { rows } = await pool.query<{ generic_plans: string; custom_plans: string }>(
        "SELECT generic_plans, custom_plans FROM pg_prepared_statements WHERE name LIKE 'agentloom_readSession%'",
      );
      expect(rows.map((row) => [Number(row.generic_plans), Number(row.custom_plans)])).toEqual([[8, 0]]);
      await store.close();
      await pool.end();
      await dropSchema(schema);
    });

    it('measures leases on the database clock: a worker whose clock runs an hour ahead does not take over', async () => {
      const schema = uniqueSchemaName('clock');
      const first = await freshStore(schema);
      const second = await freshStore(schema, false);
      await first.acquire(request({ leaseMs: 60_000 }));
      const realNow = Date.now.bind(Date);
      vi.spyOn(Date, 'now').mockImplementation(() => realNow() + 3_600_000);
      const answer = await second.acquire(request({ ownerId: 'owner-b' }));
      expect(answer.outcome).toBe('owned-elsewhere');
      expect(answer.run.ownerId).toBe('owner-a');
    });

    it('numbers the entries of many concurrent appends densely, each append contiguous', async () => {
      const store = await freshStore();
      await store.acquire(request());
      const appends = Array.from({ length: 20 }, (_, index) =>
        store.append({
          runId: 'run-1',
          epoch: 1,
          entries: [
            { type: 'first', data: { index } },
            { type: 'second', data: { index } },
          ],
          chargeLoops: 1,
        }),
      );
      const written = await Promise.all(appends);
      expect(new Set(written.map((result) => result.lastSequence)).size).toBe(20);
      const journal = await store.readJournal('run-1');
      expect(journal.map((entry) => entry.sequence)).toEqual(Array.from({ length: 41 }, (_, index) => index + 1));
      for (let position = 1; position < journal.length; position += 2) {
        expect(journal[position]?.type).toBe('first');
        expect(journal[position + 1]).toMatchObject({ type: 'second', data: journal[position]?.data });
      }
      expect(await store.getRun('run-1')).toMatchObject({ loopsUsed: 20, lastSequence: 41 });
    });

    it('keeps data byte-exact: key order, \\u0000 and lone surrogates survive', async () => {
      const store = await freshStore();
      const data = { zeta: 1, alpha: { y: 'nul \u0000 here', x: '\ud800 lone' }, list: [3, 1, 2] };
      await store.acquire(request({ initialEntries: [{ type: 'run-started', data }] }));
      const [entry] = await store.readJournal('run-1');
      expect(JSON.stringify(entry?.data)).toBe(JSON.stringify(data));
    });

    it('frees a run whose acquirer froze inside its transaction once the server ends that session', async () => {
      const schema = uniqueSchemaName('frozen');
      const owner = await freshStore(schema);
      await owner.acquire(request());
      // A pool whose connection "freezes" right after acquire has locked the run's row: the
      // next statement is never sent, as if the process had been stopped there.
      const pool = new pg.Pool({ connectionString: postgresUrl, max: 1 });
      pool.on('error', () => {});
      let froze: () => void = () => {};
      const frozen = new Promise<void>((resolve) => {
        froze = resolve;
      });
      let thaw: (error: Error) => void = () => {};
      const connect = pool.connect.bind(pool) as () => Promise<pg.PoolClient>;
      Object.assign(pool, {
        connect: async () => {
          const client = await connect();
          const query = client.query.bind(client) as (text: unknown, values?: unknown) => Promise<unknown>;
          let locked = false;
          let frozeOnce = false;
          Object.assign(client, {
            query: (text: unknown, values?: unknown) => {
              // The statement after the one that locks the row (the lock reads the clock too) never goes out.
              if (!locked || frozeOnce) {
                const sql = typeof text === 'string' ? text : String((text as { text?: string }).text);
                locked = sql.includes('FOR UPDATE');
                return query(text, values);
              }
              frozeOnce = true;
              froze();
              return new Promise((_, reject) => {
                thaw = reject;
              });
            },
          });
          return client;
        },
      });
      const stalled = new PostgresRunStore({ pool, schema, idleTransactionTimeoutMs: 300 });
      const stalledAcquire = stalled.acquire(request({ ownerId: 'frozen' })).catch((error: unknown) => error);
      await frozen;
      // Blocked on the row lock until the server ends the frozen session, then answered.
      const answer = await owner.acquire(request({ ownerId: 'owner-c' }));
      expect(answer.outcome).toBe('owned-elsewhere');
      expect(answer.run.ownerId).toBe('owner-a');
      thaw(new Error('thawed'));
      expect(StoreFailureError.isInstance(await stalledAcquire)).toBe(true);
      await pool.end();
    });

    it('takes over a run whose lease is free in one statement, and leaves every other case to the locking transaction', async () => {
      const schema = uniqueSchemaName('take');
      const host = await freshStore(schema);
      await host.createRun({
        runId: 'run-1',
        sessionId: 'session-1',
        entries: [{ type: 'run-requested', data: { input: 'question' } }],
        labels: { kind: 'agent', name: 'a', metadata: {} },
      });
      const pool = new pg.Pool({ connectionString: postgresUrl, max: 2 });
      const worker = new PostgresRunStore({ pool, schema });
      const statements = vi.spyOn(pool, 'query');
      // `pool.query` takes its connection with `connect` too: the transactions are the difference.
      const connections = vi.spyOn(pool, 'connect');
      const transactions = () => connections.mock.calls.length - statements.mock.calls.length;
      const taken = await worker.acquire(request({ initialEntries: [], withJournal: true }));
      expect(taken).toMatchObject({
        outcome: 'acquired',
        run: { status: 'running', ownerId: 'owner-a', epoch: 2, lastSequence: 1 },
      });
      expect(taken.run.leaseExpiresAt).toBeGreaterThan(Date.now() + 50_000);
      expect([statements.mock.calls.length, transactions()]).toEqual([1, 0]);
      // The journal its new owner reads next came with it, in the same statement.
      expect(taken.outcome === 'acquired' && taken.journal).toEqual(await host.readJournal('run-1'));
      // A live owner, another session, a finished run: the transaction answers, as before.
      expect((await worker.acquire(request({ ownerId: 'owner-b', initialEntries: [] }))).outcome).toBe('owned-elsewhere');
      await expect(worker.acquire(request({ sessionId: 'session-2', initialEntries: [] }))).rejects.toThrow(/session-1/);
      const final = {
        runId: 'run-1',
        sessionId: 'session-1',
        status: 'succeeded' as const,
        output: 'answer',
        loops: 1,
        usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 },
      };
      await worker.append({ runId: 'run-1', epoch: 2, entries: [{ type: 'run-finished', data: final }], terminal: final });
      expect((await worker.acquire(request({ ownerId: 'owner-b', initialEntries: [] }))).outcome).toBe('terminal');
      expect(transactions()).toBe(3);
      await worker.close();
      await pool.end();
    });

    it('opens a follow of an ended run with one statement, and follows a live run to its end', async () => {
      const schema = uniqueSchemaName('follow');
      const pool = new pg.Pool({ connectionString: postgresUrl, max: 2 });
      const store = new PostgresRunStore({ pool, schema });
      await store.setup();
      const client = new RunClient({ store, safetyNetMs: 200 });
      const { runId } = await client.createRun({ sessionId: 's', kind: 'agent', name: 'a', input: 'question' });
      const live = await client.openFollow(runId);
      const agent = new Agent({
        name: 'a',
        mode: 'react',
        model: new ScriptedModel({ respond: () => ({ text: 'Done.' }) }),
        prompt: 'p',
        store,
      });
      const events: string[] = [];
      const following = (async () => {
        for await (const batch of live) events.push(...batch.map((event) => event.type));
      })();
      await agent.run({ sessionId: 's', runId }).result();
      await following;
      expect(events.at(-1)).toBe('run-finish');
      const statements = vi.spyOn(pool, 'query');
      const replay: string[] = [];
      for await (const batch of await client.openFollow(runId)) replay.push(...batch.map((event) => event.type));
      expect(replay).toEqual(events);
      expect(statements.mock.calls.length).toBe(1);
      await store.close();
      await pool.end();
      await dropSchema(schema);
    });

    it('answers no journal with a takeover when a write committed while it waited for the row', async () => {
      const schema = uniqueSchemaName('late');
      const store = await freshStore(schema);
      await store.acquire(request({ leaseMs: 1 }));
      await sleep(5);
      // A late write of the old owner holds the run's row while the takeover starts.
      const late = new pg.Client({ connectionString: postgresUrl });
      await late.connect();
      const quoted = late.escapeIdentifier(schema);
      await late.query('BEGIN');
      await late.query(`UPDATE ${quoted}.agentloom_runs SET last_sequence = last_sequence + 1 WHERE run_id = 'run-1'`);
      await late.query(
        `INSERT INTO ${quoted}.agentloom_journal (run_id, sequence, epoch, type, task_id, data, at) VALUES ('run-1', 2, 1, 'late', NULL, '{}', 0)`,
      );
      const taking = store.acquire(request({ ownerId: 'owner-b', initialEntries: [], mustExist: true, withJournal: true }));
      await sleep(200);
      await late.query('COMMIT');
      await late.end();
      const taken = await taking;
      expect(taken).toMatchObject({ outcome: 'acquired', run: { ownerId: 'owner-b', lastSequence: 2 } });
      // Its statement's snapshot predates the write: a journal without the late entry is not answered.
      expect(taken.outcome === 'acquired' ? taken.journal : 'none').toBeUndefined();
      expect((await store.readJournal('run-1')).map((entry) => entry.type)).toEqual(['run-started', 'late']);
    });

    it('starts a run a host created with no read of the run or its journal before its first model call', async () => {
      const store = await freshStore();
      const client = new RunClient({ store });
      const { runId } = await client.createRun({ sessionId: 's', kind: 'agent', name: 'a', input: 'question' });
      const reads: string[] = [];
      for (const method of ['getRun', 'readJournal'] as const) {
        const original = store[method].bind(store) as (...args: unknown[]) => Promise<never>;
        Object.assign(store, {
          [method]: (...args: unknown[]) => {
            reads.push(method);
            return original(...args);
          },
        });
      }
      const model = new ScriptedModel({ respond: () => ({ text: 'Done.' }) });
      const agent = new Agent({ name: 'a', mode: 'react', model, prompt: 'p', store });
      expect(await agent.run({ sessionId: 's', runId }).result()).toMatchObject({ status: 'succeeded', output: 'Done.' });
      expect(reads).toEqual([]);
      expect(model.requests[0]?.messages.map((message) => message.content)).toContain('question');
    });

    it('lets a takeover cut a stream of appends cleanly: no stale entry after the new epoch', async () => {
      const schema = uniqueSchemaName('race');
      const owner = await freshStore(schema);
      const successor = await freshStore(schema, false);
      await owner.acquire(request({ leaseMs: 150 }));
      let rejected: unknown;
      const writer = (async () => {
        for (let index = 0; ; index += 1) {
          try {
            await owner.append({ runId: 'run-1', epoch: 1, entries: [{ type: 'old', data: { index } }] });
          } catch (error) {
            rejected = error;
            return;
          }
        }
      })();
      let takeover = await successor.acquire(request({ ownerId: 'owner-b' }));
      while (takeover.outcome === 'owned-elsewhere') {
        await sleep(20);
        takeover = await successor.acquire(request({ ownerId: 'owner-b' }));
      }
      expect(takeover.outcome).toBe('acquired');
      await successor.append({ runId: 'run-1', epoch: 2, entries: [{ type: 'new', data: {} }] });
      await writer;
      expect(StaleEpochError.isInstance(rejected)).toBe(true);
      const journal = await successor.readJournal('run-1');
      const epochs = journal.map((entry) => entry.epoch);
      expect(epochs).toEqual([...epochs].sort((a, b) => a - b));
      expect(journal.at(-1)).toMatchObject({ type: 'new', epoch: 2, sequence: journal.length });
      expect(journal.filter((entry) => entry.type === 'old').length).toBeGreaterThan(0);
    });
  });
});
