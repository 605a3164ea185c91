/**
 * The stores of the workflow benchmark, for both engines, and how many bytes each keeps for one
 * run (payload bytes: the stored values of that run's rows, without indexes or page overhead).
 */
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { MemoryRunStore, type RunStore } from '@agentloom/sdk';
import { PostgresRunStore } from '@agentloom/sdk/store/postgres';
import { SqliteRunStore } from '@agentloom/sdk/store/sqlite';
import type { BaseCheckpointSaver } from '@langchain/langgraph';
import { MemorySaver } from '@langchain/langgraph';
import { PostgresSaver } from '@langchain/langgraph-checkpoint-postgres';
import { SqliteSaver } from '@langchain/langgraph-checkpoint-sqlite';
import Database from 'better-sqlite3';
import pg from 'pg';

/** The store kinds compared: none (AgentLoom: memory store, saved once at exit), memory, SQLite, PostgreSQL. */
export type StoreKind = 'none' | 'memory' | 'sqlite' | 'postgres';

/** A store of each engine for one measurement, with a way to read its size and to release it. */
export interface StorePair {
  agentloom: RunStore;
  langgraph: BaseCheckpointSaver | undefined;
  /** Payload bytes AgentLoom keeps for `runId`. */
  agentloomBytes(runId: string): Promise<number>;
  /** Payload bytes LangGraph keeps for `threadId`. */
  langgraphBytes(threadId: string): Promise<number>;
  close(): Promise<void>;
}

/** Connection string of the PostgreSQL server used by the benchmark. */
export const postgresUrl = process.env.AGENTLOOM_POSTGRES_URL || 'postgres://postgres@127.0.0.1:5432/test';

/** Whether the PostgreSQL server answers. */
export async function postgresAvailable(): Promise<boolean> {
  const client = new pg.Client({ connectionString: postgresUrl, connectionTimeoutMillis: 3_000 });
  client.on('error', () => {});
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

/** Opens a fresh pair of stores of `kind` (files under `directory`, schemas of their own). */
export async function openStores(kind: StoreKind, directory: string): Promise<StorePair> {
  if (kind === 'none' || kind === 'memory') {
    const agentloom = new MemoryRunStore();
    const saver = kind === 'memory' ? new MemorySaver() : undefined;
    return {
      agentloom,
      langgraph: saver,
      agentloomBytes: async (runId) => {
        const run = await agentloom.getRun(runId);
        const journal = await agentloom.readJournal(runId);
        return JSON.stringify(run).length + journal.reduce((total, entry) => total + JSON.stringify(entry).length, 0);
      },
      langgraphBytes: async (threadId) => (saver ? memorySaverBytes(saver, threadId) : 0),
      close: async () => {},
    };
  }
  if (kind === 'sqlite') {
    const agentloomPath = join(directory, `agentloom-${randomUUID()}.db`);
    const langgraphPath = join(directory, `langgraph-${randomUUID()}.db`);
    const agentloom = new SqliteRunStore({ path: agentloomPath });
    const saver = SqliteSaver.fromConnString(langgraphPath);
    return {
      agentloom,
      langgraph: saver,
      agentloomBytes: async (runId) =>
        sqliteSum(
          agentloomPath,
          `SELECT (SELECT COALESCE(SUM(LENGTH(type) + LENGTH(data) + COALESCE(LENGTH(task_id), 0) + 32), 0)
                     FROM agentloom_journal WHERE run_id = @id)
                + (SELECT COALESCE(SUM(LENGTH(run_id) + LENGTH(session_id) + LENGTH(status) + COALESCE(LENGTH(result), 0) + 48), 0)
                     FROM agentloom_runs WHERE run_id = @id) AS bytes`,
          runId,
        ),
      langgraphBytes: async (threadId) =>
        sqliteSum(
          langgraphPath,
          `SELECT (SELECT COALESCE(SUM(LENGTH(thread_id) + LENGTH(checkpoint_ns) + LENGTH(checkpoint_id)
                          + COALESCE(LENGTH(parent_checkpoint_id), 0) + COALESCE(LENGTH(type), 0)
                          + LENGTH(checkpoint) + LENGTH(metadata)), 0) FROM checkpoints WHERE thread_id = @id)
                + (SELECT COALESCE(SUM(LENGTH(thread_id) + LENGTH(checkpoint_ns) + LENGTH(checkpoint_id) + LENGTH(task_id)
                          + 8 + LENGTH(channel) + COALESCE(LENGTH(type), 0) + COALESCE(LENGTH(value), 0)), 0)
                     FROM writes WHERE thread_id = @id) AS bytes`,
          threadId,
        ),
      close: async () => {
        await agentloom.close();
        saver.db.close();
      },
    };
  }
  const suffix = randomUUID().replaceAll('-', '').slice(0, 12);
  const agentloomSchema = `bench_agentloom_${suffix}`;
  const langgraphSchema = `bench_langgraph_${suffix}`;
  const agentloom = await PostgresRunStore.fromConnectionString(postgresUrl, { schema: agentloomSchema });
  const saver = PostgresSaver.fromConnString(postgresUrl, { schema: langgraphSchema });
  await saver.setup();
  const query = async (sql: string, value: string) => {
    const client = new pg.Client({ connectionString: postgresUrl });
    await client.connect();
    try {
      const { rows } = await client.query<{ bytes: string | null }>(sql, [value]);
      return Number(rows[0]?.bytes ?? 0);
    } finally {
      await client.end();
    }
  };
  return {
    agentloom,
    langgraph: saver,
    agentloomBytes: (runId) =>
      query(
        `SELECT (SELECT COALESCE(SUM(octet_length(type) + octet_length(data) + COALESCE(octet_length(task_id), 0) + 24), 0)
                   FROM ${agentloomSchema}.agentloom_journal WHERE run_id = $1)
              + (SELECT COALESCE(SUM(octet_length(run_id) + octet_length(session_id) + octet_length(status)
                        + COALESCE(octet_length(result), 0) + 56), 0) FROM ${agentloomSchema}.agentloom_runs WHERE run_id = $1) AS bytes`,
        runId,
      ),
    langgraphBytes: (threadId) =>
      query(
        `SELECT (SELECT COALESCE(SUM(octet_length(thread_id) + octet_length(checkpoint_ns) + octet_length(checkpoint_id)
                        + COALESCE(octet_length(parent_checkpoint_id), 0) + COALESCE(octet_length(type), 0)
                        + octet_length(checkpoint::text) + octet_length(metadata::text)), 0)
                   FROM ${langgraphSchema}.checkpoints WHERE thread_id = $1)
              + (SELECT COALESCE(SUM(octet_length(thread_id) + octet_length(checkpoint_ns) + octet_length(channel)
                        + octet_length(version) + octet_length(type) + COALESCE(octet_length(blob), 0)), 0)
                   FROM ${langgraphSchema}.checkpoint_blobs WHERE thread_id = $1)
              + (SELECT COALESCE(SUM(octet_length(thread_id) + octet_length(checkpoint_ns) + octet_length(checkpoint_id)
                        + octet_length(task_id) + 4 + octet_length(channel) + COALESCE(octet_length(type), 0)
                        + octet_length(blob)), 0)
                   FROM ${langgraphSchema}.checkpoint_writes WHERE thread_id = $1) AS bytes`,
        threadId,
      ),
    close: async () => {
      await agentloom.close();
      await saver.end();
      const client = new pg.Client({ connectionString: postgresUrl });
      await client.connect();
      try {
        await client.query(`DROP SCHEMA IF EXISTS ${agentloomSchema} CASCADE`);
        await client.query(`DROP SCHEMA IF EXISTS ${langgraphSchema} CASCADE`);
      } finally {
        await client.end();
      }
    },
  };
}

function sqliteSum(path: string, sql: string, value: string): number {
  const database = new Database(path, { readonly: true });
  try {
    return Number((database.prepare(sql).get({ id: value }) as { bytes: number | null }).bytes ?? 0);
  } finally {
    database.close();
  }
}

/** Bytes a `MemorySaver` keeps for one thread: its serialised checkpoints, metadata and writes. */
function memorySaverBytes(saver: MemorySaver, threadId: string): number {
  let bytes = 0;
  const add = (value: unknown): void => {
    if (value instanceof Uint8Array) bytes += value.byteLength;
    else if (typeof value === 'string') bytes += Buffer.byteLength(value);
    else if (Array.isArray(value)) for (const item of value) add(item);
    else if (value && typeof value === 'object') for (const item of Object.values(value)) add(item);
  };
  add(saver.storage[threadId]);
  for (const [key, value] of Object.entries(saver.writes)) if (key.includes(threadId)) add(value);
  return bytes;
}
