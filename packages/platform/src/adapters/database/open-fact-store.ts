import path from 'node:path';
import type { FactStore } from '@agentloom/sdk';
import { PostgresFactStore } from '@agentloom/sdk/store/postgres';
import { SqliteFactStore } from '@agentloom/sdk/store/sqlite';
import type { DatabaseLocation } from './index.js';
import { runStoreSchemaOf } from './open-run-store.js';

/**
 * The fact store of agents with memory (N-15), opened on first use so that a platform whose agents
 * never remember anything opens nothing: a SQLite file next to the run store in the embedded
 * default, the same PostgreSQL database (a schema of its own) otherwise, so every worker on every
 * machine reads the same facts.
 */
export function openFactStore(location: DatabaseLocation, dataDirectory: string): FactStore {
  let opened: Promise<FactStore> | undefined;
  const open = (): Promise<FactStore> => {
    opened ??= (async () => {
      if (location.dialect === 'sqlite') {
        const directory = location.file === ':memory:' ? dataDirectory : path.dirname(location.file);
        return new SqliteFactStore({ path: path.join(directory, 'facts.sqlite') });
      }
      const store = new PostgresFactStore({ connectionString: location.url, schema: factSchemaOf(location) });
      await store.setup();
      return store;
    })();
    return opened;
  };
  return {
    remember: async (scope, fact) => (await open()).remember(scope, fact),
    recall: async (scope, options) => (await open()).recall(scope, options),
    forget: async (scope, factId) => (await open()).forget(scope, factId),
    close: async () => {
      if (opened) await (await opened).close();
    },
  };
}

/** `<run store schema>_facts`, at most 63 characters (PostgreSQL's identifier limit). */
function factSchemaOf(location: Extract<DatabaseLocation, { dialect: 'postgres' }>): string {
  return `${runStoreSchemaOf(location).slice(0, 57)}_facts`;
}
