/**
 * Opens the durable store a test child process works on, named by a URL:
 * - `sqlite:<path>`: a `SqliteRunStore` on that file;
 * - `postgres://…?schema=<name>` (or `postgresql://…`): a `PostgresRunStore` on that schema, which
 *   the parent test has already set up.
 */
import type { RunStore } from '../../src/store/run-store.js';

/** Opens the store named by `url`; throws for a URL no adapter accepts. */
export async function openStore(url: string): Promise<RunStore> {
  if (url.startsWith('sqlite:')) {
    const { SqliteRunStore } = await import('../../src/store/sqlite/index.js');
    return new SqliteRunStore({ path: url.slice('sqlite:'.length) });
  }
  if (url.startsWith('postgres://') || url.startsWith('postgresql://')) {
    const { PostgresRunStore } = await import('../../src/store/postgres/index.js');
    const parsed = new URL(url);
    const schema = parsed.searchParams.get('schema');
    if (!schema) throw new Error(`the store URL ${parsed.host} needs a ?schema= parameter`);
    parsed.searchParams.delete('schema');
    return new PostgresRunStore({ connectionString: parsed.toString(), schema, poolSize: 4 });
  }
  throw new Error(`unknown store ${url}`);
}
