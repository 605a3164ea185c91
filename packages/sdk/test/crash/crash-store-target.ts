/**
 * The durable stores the crash tests run against. A target names a store for the child
 * processes (a URL `openStore` accepts) and opens the same store in the test to read the run back.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunStore } from '../../src/store/run-store.js';
import { openStore } from './open-store.js';

/** One durable store under test, shared by every crash case of a suite. */
export interface CrashStoreTarget {
  /** Shown in the suite's name. */
  name: string;
  /** Directory for the cases' side-effect logs (and SQLite files). */
  directory: string;
  /** The store URL a case's child processes open. */
  storeUrl(caseNumber: number): string;
  /** Opens the case's store in the test process, runs `work`, and lets it go. */
  read<T>(storeUrl: string, work: (store: RunStore) => Promise<T>): Promise<T>;
  dispose(): Promise<void>;
}

/** One SQLite file per case, opened and closed for each read (as another process would). */
export function sqliteCrashTarget(): CrashStoreTarget {
  const directory = mkdtempSync(join(tmpdir(), 'agentloom-crash-'));
  return {
    name: 'SQLite',
    directory,
    storeUrl: (caseNumber) => `sqlite:${join(directory, `run-${caseNumber}.db`)}`,
    read: async (storeUrl, work) => {
      const store = await openStore(storeUrl);
      try {
        return await work(store);
      } finally {
        await store.close();
      }
    },
    dispose: async () => rmSync(directory, { recursive: true, force: true }),
  };
}

/**
 * One PostgreSQL schema for the whole suite (the cases' run ids differ), set up before the first
 * case and dropped at the end; the test reads through one store kept open.
 */
export async function postgresCrashTarget(options: {
  schema: string;
  storeUrl: string;
  dropSchema: (schema: string) => Promise<void>;
}): Promise<CrashStoreTarget> {
  const directory = mkdtempSync(join(tmpdir(), 'agentloom-crash-pg-'));
  const { PostgresRunStore } = await import('../../src/store/postgres/index.js');
  const reader = (await openStore(options.storeUrl)) as InstanceType<typeof PostgresRunStore>;
  await reader.setup();
  return {
    name: 'PostgreSQL',
    directory,
    storeUrl: () => options.storeUrl,
    read: (_storeUrl, work) => work(reader),
    dispose: async () => {
      await reader.close();
      await options.dropSchema(options.schema);
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
