/**
 * Counts every SQL statement this process executes, on every connection (issue 34: "idle
 * followers cost 0 queries per second"). It wraps, once, the prototypes every connection of the
 * process shares — better-sqlite3's `Statement` (`run`, `get`, `all`, `iterate`) and
 * `Database.exec`, and `pg.Client.prototype.query` — so the platform database (Kysely), the
 * SDK run store and pg-boss are all counted without any of them knowing (`Database.pragma` runs
 * through a `Statement`, so it is counted there, once). SQLite's
 * `PRAGMA data_version` (a counter read from shared memory, no table read, ADR 0025) is counted
 * apart, as `dataVersion`.
 */
import Database from 'better-sqlite3';
import pg from 'pg';

/** Statements executed since the counter was installed. */
export interface QueryCounts {
  sqlite: number;
  /** `PRAGMA data_version` reads (no table touched), included in neither `sqlite` nor `postgres`. */
  dataVersion: number;
  postgres: number;
}

const counts: QueryCounts = { sqlite: 0, dataVersion: 0, postgres: 0 };
let installed = false;
/** The texts of the statements executed while a recording is open (`recordStatements`). */
let recording: string[] | undefined;

type AnyFunction = (this: unknown, ...args: unknown[]) => unknown;

function wrap(target: Record<string, unknown>, name: string, count: (self: unknown, args: unknown[]) => void): void {
  const original = target[name] as AnyFunction | undefined;
  if (typeof original !== 'function') return;
  target[name] = function (this: unknown, ...args: unknown[]) {
    count(this, args);
    return original.apply(this, args);
  };
}

/** Installs the counters (idempotent). */
export function installQueryCounter(): void {
  if (installed) return;
  installed = true;
  const probe = new Database(':memory:');
  const statementPrototype = Object.getPrototypeOf(probe.prepare('select 1')) as Record<string, unknown>;
  probe.close();
  const countStatement = (self: unknown) => {
    const source = (self as { source?: string }).source ?? '';
    if (/^\s*pragma\s+data_version/i.test(source)) counts.dataVersion += 1;
    else {
      counts.sqlite += 1;
      recording?.push(source);
    }
  };
  for (const name of ['run', 'get', 'all', 'iterate']) wrap(statementPrototype, name, countStatement);
  const databasePrototype = Database.prototype as unknown as Record<string, unknown>;
  wrap(databasePrototype, 'exec', (_self, args) => {
    counts.sqlite += 1;
    recording?.push(String(args[0]));
  });
  wrap(pg.Client.prototype as unknown as Record<string, unknown>, 'query', (_self, args) => {
    counts.postgres += 1;
    const query = args[0];
    // A named (prepared) statement is recorded with its name after its text.
    const { text, name } =
      typeof query === 'string' ? { text: query, name: undefined } : (query as { text?: string; name?: string });
    recording?.push(name ? `${String(text)} /* named ${name} */` : String(text));
  });
}

/** The counts so far (a copy). */
export function queryCounts(): QueryCounts {
  return { ...counts };
}

/** What happened between two readings. */
export function countsSince(before: QueryCounts): QueryCounts {
  return {
    sqlite: counts.sqlite - before.sqlite,
    dataVersion: counts.dataVersion - before.dataVersion,
    postgres: counts.postgres - before.postgres,
  };
}

/**
 * Records the text of every statement (both engines, `PRAGMA data_version` left out) until the
 * answered function is called, which answers them in order; a PostgreSQL statement sent named
 * (prepared) ends with `/* named <name> *\/`.
 */
export function recordStatements(): () => string[] {
  const texts: string[] = [];
  recording = texts;
  return () => {
    if (recording === texts) recording = undefined;
    return texts;
  };
}
