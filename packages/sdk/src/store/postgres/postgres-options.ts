import type pg from 'pg';
import type { ConfigurationIssue } from '../../core/errors/index.js';

/** Where `PostgresRunStore` connects: a connection string (it owns its pool) or your own pool. */
export type PostgresConnection = { connectionString: string; pool?: never } | { pool: pg.Pool; connectionString?: never };

/** Settings of `PostgresRunStore` besides the connection. */
export interface PostgresRunStoreSettings {
  /**
   * Schema holding the store's tables, created by `setup()` if missing. Lowercase letters, digits
   * and `_`. Default `public`. Separate schemas keep separate stores (tests, tenants) apart.
   */
  schema?: string;
  /** Connections of the pool the store creates from a connection string. Default 10. */
  poolSize?: number;
  /**
   * How long the server lets an acquire or setup transaction sit idle before it ends the session,
   * in milliseconds. A process frozen in the middle of one (SIGSTOP, a long GC pause) would
   * otherwise hold the run's row lock and block every other worker. Default 10 000.
   */
  idleTransactionTimeoutMs?: number;
  /**
   * How long one query may wait for the server's answer before it fails with a transient
   * `StoreFailureError`, in milliseconds (pool the store creates only). Default 10 000. The engine
   * also bounds every store call of a run by the run's lease.
   */
  queryTimeoutMs?: number;
}

/** Options of `PostgresRunStore`: a connection plus settings. */
export type PostgresRunStoreOptions = PostgresConnection & PostgresRunStoreSettings;

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/** Lists every problem of a `PostgresRunStore` configuration (empty when it is valid). */
export function validatePostgresOptions(options: PostgresRunStoreOptions): ConfigurationIssue[] {
  const issues: ConfigurationIssue[] = [];
  const given = (options ?? {}) as Partial<PostgresConnection> & PostgresRunStoreSettings;
  const hasString = typeof given.connectionString === 'string' && given.connectionString !== '';
  if (hasString === (given.pool !== undefined)) {
    issues.push({ path: 'connectionString', message: 'give exactly one of a non-empty connectionString or a pool' });
  }
  if (given.schema !== undefined && !SCHEMA_NAME.test(given.schema)) {
    issues.push({ path: 'schema', message: 'must be 1-63 lowercase letters, digits or _, not starting with a digit' });
  }
  if (given.poolSize !== undefined && !(Number.isInteger(given.poolSize) && given.poolSize > 0)) {
    issues.push({ path: 'poolSize', message: 'must be a positive integer' });
  }
  if (given.pool !== undefined && given.poolSize !== undefined) {
    issues.push({ path: 'poolSize', message: 'applies only to the pool the store creates; size your own pool yourself' });
  }
  const timeout = given.idleTransactionTimeoutMs;
  if (timeout !== undefined && !(Number.isInteger(timeout) && timeout > 0)) {
    issues.push({ path: 'idleTransactionTimeoutMs', message: 'must be a positive integer' });
  }
  const queryTimeout = given.queryTimeoutMs;
  if (queryTimeout !== undefined && !(Number.isInteger(queryTimeout) && queryTimeout > 0)) {
    issues.push({ path: 'queryTimeoutMs', message: 'must be a positive integer' });
  }
  if (given.pool !== undefined && queryTimeout !== undefined) {
    issues.push({
      path: 'queryTimeoutMs',
      message: 'applies only to the pool the store creates; set query_timeout on your own pool',
    });
  }
  return issues;
}
