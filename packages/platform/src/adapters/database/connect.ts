import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { startBackgroundCheckpoints } from '@agentloom/sdk/store/sqlite';
import Database from 'better-sqlite3';
import {
  Kysely,
  type KyselyPlugin,
  LimitNode,
  OffsetNode,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryResult,
  type RootOperationNode,
  SelectQueryNode,
  type UnknownRow,
  ValueNode,
} from 'kysely';
import pg from 'pg';
import { namedStatementPool } from './named-statement-pool.js';
import type { PlatformDatabase } from './schema.js';
import { SearchPathPostgresDialect } from './search-path-introspector.js';
import { PlatformSqliteDialect } from './sqlite-driver.js';

/** Which database engine a platform database runs on. */
export type DatabaseDialect = 'sqlite' | 'postgres';

/** An open platform database and how to close it. */
export interface PlatformDatabaseHandle {
  readonly database: Kysely<PlatformDatabase>;
  readonly dialect: DatabaseDialect;
  close(): Promise<void>;
}

/** Where the platform database lives: a SQLite file, or a PostgreSQL URL with an optional schema. */
export type DatabaseLocation = { dialect: 'sqlite'; file: string } | { dialect: 'postgres'; url: string; schema?: string };

/**
 * Opens the platform database. SQLite runs in WAL mode with foreign keys on (the embedded
 * default, one file, no set-up); PostgreSQL uses a pool whose `search_path` is the given schema,
 * so that tests and the SDK store can each keep their own schema in one database (D-P13).
 */
export function openPlatformDatabase(location: DatabaseLocation): PlatformDatabaseHandle {
  if (location.dialect === 'sqlite') {
    if (location.file !== ':memory:') mkdirSync(path.dirname(location.file), { recursive: true });
    const sqlite = new Database(location.file);
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('foreign_keys = ON');
    // As the SDK's SQLite store: in WAL mode, NORMAL loses no commit when the process crashes
    // (only on power loss), and does not wait for the disk at every commit.
    sqlite.pragma('synchronous = NORMAL');
    // Checkpoints run on a thread of their own, never inside a request's commit (issue 34).
    const checkpoints = location.file === ':memory:' ? undefined : startBackgroundCheckpoints(location.file);
    if (checkpoints) sqlite.pragma('wal_autocheckpoint = 0');
    const database = new Kysely<PlatformDatabase>({
      // Lock waits by timer, BEGIN IMMEDIATE, kept statements: see PlatformSqliteDialect.
      dialect: new PlatformSqliteDialect(sqlite),
      plugins: [new LiteralLimits()],
    });
    return {
      database,
      dialect: 'sqlite',
      close: async () => {
        await database.destroy();
        await checkpoints?.stop();
      },
    };
  }
  const pool = new pg.Pool({
    connectionString: location.url,
    max: 10,
    ...(location.schema ? { options: `-c search_path=${quoteIdentifier(location.schema)}` } : {}),
  });
  // Introspection (Kysely's migrator) reads only this schema: see SearchPathPostgresDialect.
  const database = new Kysely<PlatformDatabase>({ dialect: new SearchPathPostgresDialect({ pool: namedStatementPool(pool) }) });
  return { database, dialect: 'postgres', close: () => database.destroy() };
}

function literalInteger(node: LimitNode['limit']): LimitNode['limit'] {
  return ValueNode.is(node) && Number.isSafeInteger(node.value) ? ValueNode.createImmediate(node.value) : node;
}

/**
 * SQLite re-prepares a statement whose LIMIT or OFFSET is a bound parameter on every execution
 * (the SQLite that better-sqlite3 builds has STAT4: the planner reads the bound value, so a new
 * binding expires the plan), which made cached statements as slow as uncached ones. A query's
 * own integer LIMIT and OFFSET are written into the SQL instead; each distinct value is one
 * cached statement (issue 34). Only the query's top level is looked at: walking the whole tree of
 * every query cost more than it saved, and the platform's subqueries have no LIMIT.
 */
class LiteralLimits implements KyselyPlugin {
  transformQuery({ node }: PluginTransformQueryArgs): RootOperationNode {
    if (!SelectQueryNode.is(node)) return node;
    let select = node;
    if (select.limit) select = SelectQueryNode.cloneWithLimit(select, LimitNode.create(literalInteger(select.limit.limit)));
    if (select.offset) select = SelectQueryNode.cloneWithOffset(select, OffsetNode.create(literalInteger(select.offset.offset)));
    return select;
  }

  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return args.result;
  }
}

/** Quotes a PostgreSQL identifier (schema names come from configuration). */
export function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}
