/**
 * Counts what a store really reads from its database (issue 34): every row any statement answers
 * to the store, as the driver hands it over — better-sqlite3's `Statement.get/all/iterate` and
 * pg's `Client.query` — and its bytes (the UTF-8 length of the row's values: strings and buffers
 * by their length, numbers and the like by their text). A joined row counts once however many runs
 * it names; rows a statement writes without returning them are not reads. Installed once per
 * process, before any store opens; `bench:session` resets it around each run.
 */
import Database from 'better-sqlite3';
import pg from 'pg';

/** Rows and bytes read from the database since the last `reset`, by the statements the store ran. */
export class DriverReadMeter {
  rows = 0;
  bytes = 0;
  statements = 0;

  reset(): void {
    this.rows = 0;
    this.bytes = 0;
    this.statements = 0;
  }

  /** Counts the rows one statement answered. */
  count(rows: readonly unknown[]): void {
    this.statements += 1;
    this.rows += rows.length;
    for (const row of rows) this.bytes += rowBytes(row);
  }
}

/** The bytes of one row's values as the driver answered them. */
function rowBytes(row: unknown): number {
  if (row === null || typeof row !== 'object') return valueBytes(row);
  let total = 0;
  for (const value of Object.values(row as Record<string, unknown>)) total += valueBytes(value);
  return total;
}

function valueBytes(value: unknown): number {
  if (value === null || value === undefined) return 0;
  if (typeof value === 'string') return Buffer.byteLength(value);
  if (Buffer.isBuffer(value)) return value.length;
  if (typeof value === 'object') return Buffer.byteLength(JSON.stringify(value));
  return String(value).length;
}

let installed: DriverReadMeter | undefined;

/** Wraps both drivers' read paths once; answers the process's meter. */
export function installDriverReadMeter(): DriverReadMeter {
  if (installed) return installed;
  const meter = new DriverReadMeter();
  installed = meter;
  // better-sqlite3 keeps its Statement class private: its prototype is reached through one statement.
  const probe = new Database(':memory:');
  type Method = (this: unknown, ...args: unknown[]) => unknown;
  const statement = Object.getPrototypeOf(probe.prepare('SELECT 1')) as Record<'get' | 'all' | 'iterate', Method>;
  probe.close();
  const { get, all, iterate } = statement;
  statement.get = function (this: unknown, ...args: unknown[]) {
    const row = get.apply(this, args);
    meter.count(row === undefined ? [] : [row]);
    return row;
  };
  statement.all = function (this: unknown, ...args: unknown[]) {
    const rows = all.apply(this, args) as unknown[];
    meter.count(rows);
    return rows;
  };
  statement.iterate = function* (this: unknown, ...args: unknown[]) {
    meter.count([]);
    for (const row of iterate.apply(this, args) as Iterable<unknown>) {
      meter.count([row]);
      meter.statements -= 1;
      yield row;
    }
  };
  const client = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
  const query = client.query;
  const counted = (result: unknown) => {
    for (const one of Array.isArray(result) ? result : [result]) {
      const rows = (one as { rows?: unknown[] } | undefined)?.rows;
      if (Array.isArray(rows)) meter.count(rows);
    }
  };
  client.query = function (this: unknown, ...args: unknown[]) {
    const callback = args.at(-1);
    if (typeof callback === 'function') {
      args[args.length - 1] = (error: unknown, result: unknown) => {
        if (!error) counted(result);
        (callback as (error: unknown, result: unknown) => void)(error, result);
      };
      return query.apply(this, args);
    }
    const answer = query.apply(this, args);
    if (answer && typeof (answer as Promise<unknown>).then === 'function') {
      return (answer as Promise<unknown>).then((result) => {
        counted(result);
        return result;
      });
    }
    return answer;
  };
  return meter;
}
