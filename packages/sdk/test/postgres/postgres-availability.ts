/**
 * The one place that decides whether the PostgreSQL tests run. Every test file that needs the
 * server registers its suites through `describeWithPostgres`:
 * - server reachable: the suites run;
 * - server unreachable: they are skipped, with the reason printed and in the suite's name;
 * - server unreachable and `AGENTLOOM_REQUIRE_POSTGRES=1` (set by `.ci/run`): they fail.
 * The server is `AGENTLOOM_POSTGRES_URL`, by default `postgres://postgres@127.0.0.1:5432/test`.
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { describe, it } from 'vitest';

/** Connection string of the test server. */
export const postgresUrl = process.env.AGENTLOOM_POSTGRES_URL || 'postgres://postgres@127.0.0.1:5432/test';

/** Whether an unreachable server fails the tests instead of skipping them. */
export const postgresRequired = process.env.AGENTLOOM_REQUIRE_POSTGRES === '1';

/** Whether the test server answered, and why not when it did not. */
export type PostgresAvailability = { available: true } | { available: false; reason: string };

let probe: Promise<PostgresAvailability> | undefined;
let warned = false;

/** Where the server is, without credentials, for messages. */
function serverName(): string {
  try {
    const url = new URL(postgresUrl);
    return `${url.hostname}:${url.port || '5432'}${url.pathname}`;
  } catch {
    return 'AGENTLOOM_POSTGRES_URL';
  }
}

/** Connects once (per test file) to see whether the server answers. */
export function checkPostgres(): Promise<PostgresAvailability> {
  probe ??= (async (): Promise<PostgresAvailability> => {
    const client = new pg.Client({ connectionString: postgresUrl, connectionTimeoutMillis: 3_000 });
    client.on('error', () => {});
    try {
      await client.connect();
      await client.query('SELECT 1');
      return { available: true };
    } catch (error) {
      return { available: false, reason: `PostgreSQL at ${serverName()} is not reachable (${(error as Error).message})` };
    } finally {
      await client.end().catch(() => {});
    }
  })();
  return probe;
}

/**
 * Registers a suite that needs PostgreSQL; await it at the top level of the test file. Runs,
 * skips (printing why) or fails as described at the top of this file.
 */
export async function describeWithPostgres(name: string, body: () => void): Promise<void> {
  const availability = await checkPostgres();
  if (availability.available) {
    describe(name, body);
    return;
  }
  if (postgresRequired) {
    describe(name, () => {
      it('reaches PostgreSQL (AGENTLOOM_REQUIRE_POSTGRES=1 turns a skip into a failure)', () => {
        throw new Error(`${availability.reason}. Start it or unset AGENTLOOM_REQUIRE_POSTGRES.`);
      });
    });
    return;
  }
  if (!warned) {
    warned = true;
    console.warn(
      `[agentloom] SKIPPED PostgreSQL tests: ${availability.reason}. Set AGENTLOOM_POSTGRES_URL, or AGENTLOOM_REQUIRE_POSTGRES=1 to fail instead.`,
    );
  }
  // The body is not even collected: it may construct what needs the server.
  describe.skip(`${name} (skipped: ${availability.reason})`, () => {
    it.skip('needs PostgreSQL', () => {});
  });
}

/** A schema name no other test (or test run) uses: `agentloom_test_<label>_<random>`. */
export function uniqueSchemaName(label: string): string {
  const safe = label
    .toLowerCase()
    .replace(/[^a-z0-9_]/g, '_')
    .slice(0, 24);
  return `agentloom_test_${safe}_${randomUUID().replaceAll('-', '').slice(0, 16)}`;
}

/** Drops a test schema and everything in it. */
export async function dropSchema(schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: postgresUrl });
  client.on('error', () => {});
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS ${client.escapeIdentifier(schema)} CASCADE`);
  } finally {
    await client.end();
  }
}

/** `postgresUrl` with a `schema` parameter, the form the test child processes accept. */
export function postgresUrlWithSchema(schema: string): string {
  const url = new URL(postgresUrl);
  url.searchParams.set('schema', schema);
  return url.toString();
}
