import { type Kysely, type Migration, type MigrationProvider, Migrator, sql } from 'kysely';
import type { DatabaseDialect } from './connect.js';
import { quoteIdentifier } from './connect.js';
import * as initial from './migrations/0001-initial.js';
import * as runs from './migrations/0002-runs.js';
import * as messagesAndDeletions from './migrations/0003-messages-and-deletions.js';
import * as runJobRequirements from './migrations/0004-run-job-requirements.js';
import * as workers from './migrations/0005-workers.js';
import * as debugSessions from './migrations/0007-debug-sessions.js';
import * as webhooks from './migrations/0008-webhooks.js';
import * as signInLimits from './migrations/0009-sign-in-limits.js';
import * as routerSessions from './migrations/0010-router-sessions.js';
import * as a2aExposure from './migrations/0011-a2a-exposure.js';
import * as sessionsAndReleaseDrafts from './migrations/0012-sessions-and-release-drafts.js';
import * as mcpSignIns from './migrations/0013-mcp-sign-ins.js';
import * as demoSpace from './migrations/0014-demo-space.js';
import type { PlatformDatabase } from './schema.js';

/** Every migration, in order; bundled in code so that no file lookup can miss one. */
const migrations: Record<string, Migration> = {
  '0001-initial': initial,
  '0002-runs': runs,
  '0003-messages-and-deletions': messagesAndDeletions,
  '0004-run-job-requirements': runJobRequirements,
  '0005-workers': workers,
  '0007-debug-sessions': debugSessions,
  '0008-webhooks': webhooks,
  '0009-sign-in-limits': signInLimits,
  '0010-router-sessions': routerSessions,
  '0011-a2a-exposure': a2aExposure,
  '0012-sessions-and-release-drafts': sessionsAndReleaseDrafts,
  '0013-mcp-sign-ins': mcpSignIns,
  '0014-demo-space': demoSpace,
};

class BundledMigrationProvider implements MigrationProvider {
  async getMigrations(): Promise<Record<string, Migration>> {
    return migrations;
  }
}

/** Thrown when a migration fails; the database stays at the last migration that succeeded. */
export class MigrationFailedError extends Error {
  readonly code = 'migration-failed';
  constructor(
    readonly migration: string | undefined,
    cause: unknown,
  ) {
    super(`Migration ${migration ?? '(unknown)'} failed: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = 'MigrationFailedError';
  }
}

/**
 * Brings the platform database to the newest schema. On PostgreSQL the schema named in the
 * location is created first. Safe to call on every start and from many processes: Kysely's
 * migrator takes a lock around the whole run, and its check for its own tables reads only the
 * schema on the search path (SearchPathPostgresDialect), so other tenants' changes to the
 * database cannot fail it.
 */
export async function migrateToLatest(
  database: Kysely<PlatformDatabase>,
  dialect: DatabaseDialect,
  schema?: string,
): Promise<readonly string[]> {
  if (dialect === 'postgres' && schema) {
    await sql`create schema if not exists ${sql.raw(quoteIdentifier(schema))}`.execute(database);
  }
  // Naming the schema puts Kysely's own tables in it whatever the connection's search path.
  const migrator = new Migrator({
    db: database,
    provider: new BundledMigrationProvider(),
    ...(dialect === 'postgres' && schema ? { migrationTableSchema: schema } : {}),
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw new MigrationFailedError(results?.find((result) => result.status === 'Error')?.migrationName, error);
  return (results ?? []).filter((result) => result.status === 'Success').map((result) => result.migrationName);
}
