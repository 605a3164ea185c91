import path from 'node:path';
import type { RunStore } from '@agentloom/sdk';
import { PostgresRunStore } from '@agentloom/sdk/store/postgres';
import { SqliteRunStore } from '@agentloom/sdk/store/sqlite';
import type { DatabaseLocation } from './index.js';

/**
 * The schema the SDK's `PostgresRunStore` keeps its tables in: its own, next to the platform's
 * (PLATFORM.md §4.3: the two never share tables). `<schema>_runs` when the platform has a schema.
 */
export function runStoreSchemaOf(location: Extract<DatabaseLocation, { dialect: 'postgres' }>): string {
  return location.schema ? `${location.schema}_runs`.slice(0, 63) : 'agentloom_runs';
}

/**
 * Opens the SDK run store that holds the truth of every run (P-11.9): a SQLite file next to the
 * platform database in the embedded default, the same PostgreSQL database (own schema) otherwise,
 * so that every worker on every machine sees the same journals.
 */
export async function openRunStore(
  location: DatabaseLocation,
  dataDirectory: string,
): Promise<RunStore & { close(): Promise<void> }> {
  if (location.dialect === 'sqlite') {
    const file =
      location.file === ':memory:'
        ? path.join(dataDirectory, 'runs.sqlite')
        : path.join(path.dirname(location.file), 'runs.sqlite');
    // Checkpoints on a thread of the store's own: no commit of a run stalls the event loop (issue 34).
    return new SqliteRunStore({ path: file, checkpoints: 'background' });
  }
  return PostgresRunStore.fromConnectionString(location.url, { schema: runStoreSchemaOf(location) });
}
