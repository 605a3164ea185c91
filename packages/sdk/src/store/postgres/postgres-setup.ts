import type pg from 'pg';
import { StoreFailureError } from '../../core/errors/index.js';
import { postgresMigrations } from './migrations.js';

/** First key of the advisory lock that serialises `setup()` calls ('AGLM'); the second is the schema. */
const SETUP_LOCK_NAMESPACE = 0x41474c4d;

/**
 * Brings a schema to the newest migration inside the caller's transaction: takes an advisory lock
 * keyed by the schema name (held until that transaction ends, so that several processes starting
 * at once migrate it exactly once), creates the schema if it is missing, then applies the
 * migrations it lacks. Refuses a schema written by a newer SDK. Returns the schema's version.
 */
export async function migratePostgresSchema(
  client: pg.PoolClient,
  schema: string,
  migrations: readonly string[] = postgresMigrations,
): Promise<number> {
  const quoted = client.escapeIdentifier(schema);
  await client.query('SELECT pg_advisory_xact_lock($1::integer, hashtext($2))', [SETUP_LOCK_NAMESPACE, schema]);
  // Checked first because CREATE SCHEMA IF NOT EXISTS needs the CREATE privilege even when the
  // schema exists, and an operator may have created it for a role that lacks that privilege.
  const existing = await client.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [schema]);
  if (existing.rowCount === 0) await client.query(`CREATE SCHEMA ${quoted}`);
  await client.query(`SET LOCAL search_path TO ${quoted}`);
  await client.query(
    `CREATE TABLE IF NOT EXISTS agentloom_migrations (
       version integer PRIMARY KEY,
       applied_at timestamptz NOT NULL DEFAULT now()
     )`,
  );
  const { rows } = await client.query<{ version: number }>(
    'SELECT COALESCE(MAX(version), 0)::integer AS version FROM agentloom_migrations',
  );
  const current = rows[0]?.version ?? 0;
  if (current > migrations.length) {
    throw new StoreFailureError(
      `PostgreSQL run store schema "${schema}" is at version ${current}, newer than this SDK supports (${migrations.length}).`,
    );
  }
  for (let version = current; version < migrations.length; version += 1) {
    await client.query(migrations[version] as string);
    await client.query('INSERT INTO agentloom_migrations (version) VALUES ($1)', [version + 1]);
  }
  return migrations.length;
}
