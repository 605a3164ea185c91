import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { openPlatformDatabase, type PlatformDatabaseHandle } from '../src/adapters/database/connect.js';
import { migrateToLatest } from '../src/adapters/database/migrate.js';
import { prepareQuery } from '../src/adapters/database/prepared-query.js';
import { dialects, postgresUrl } from './harness.js';

/** A space row named `name`. */
const spaceRow = (id: string, name: string) => ({
  id,
  name,
  state: 'active' as const,
  created_by: 'usr_test',
  created_at: new Date(0).toISOString(),
});

const spaceById = prepareQuery((database, id: string) => database.selectFrom('spaces').selectAll().where('id', '=', id));
/** The same argument twice, and constants between the arguments. */
const renameUnlessNamed = prepareQuery((database, id: string, name: string) =>
  database
    .updateTable('spaces')
    .set({ name, state: 'deleting' })
    .where('id', '=', id)
    .where('name', '<>', name)
    .where('created_by', '=', 'usr_test'),
);

// Hot queries compiled once (issue 34): each call binds its own arguments, on either database,
// and a query whose arguments do not all reach the SQL as bound values is refused, not run.
describe('prepareQuery', () => {
  const opened: { handle: PlatformDatabaseHandle; cleanUp: () => Promise<void> }[] = [];
  afterAll(async () => {
    for (const { handle, cleanUp } of opened) {
      await handle.close();
      await cleanUp();
    }
  });

  async function open(dialect: 'sqlite' | 'postgres'): Promise<PlatformDatabaseHandle> {
    if (dialect === 'sqlite') {
      const directory = mkdtempSync(path.join(tmpdir(), 'agentloom-prepared-'));
      const handle = openPlatformDatabase({ dialect, file: path.join(directory, 'platform.sqlite') });
      await migrateToLatest(handle.database, 'sqlite');
      opened.push({ handle, cleanUp: async () => rmSync(directory, { recursive: true, force: true }) });
      return handle;
    }
    const schema = `prepared_query_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
    const handle = openPlatformDatabase({ dialect, url: postgresUrl, schema });
    await migrateToLatest(handle.database, 'postgres', schema);
    const cleanUp = async () => {
      const client = new pg.Client({ connectionString: postgresUrl });
      await client.connect();
      await client.query(`drop schema if exists "${schema}" cascade`);
      await client.end();
    };
    opened.push({ handle, cleanUp });
    return handle;
  }

  it.each(dialects)(
    'binds each call its own arguments, repeated ones in every place (%s), inside transactions too',
    async (dialect) => {
      const { database } = await open(dialect);
      await database
        .insertInto('users')
        .values({
          id: 'usr_test',
          email: 'test@example.com',
          display_name: 'test',
          password_hash: 'x',
          is_instance_admin: 0,
          status: 'active',
          created_at: new Date(0).toISOString(),
        })
        .execute();
      await database
        .insertInto('spaces')
        .values([spaceRow('spc_a', 'Alpha'), spaceRow('spc_b', 'Beta')])
        .execute();
      expect((await spaceById(database, 'spc_a')).map((row) => row.name)).toEqual(['Alpha']);
      expect((await spaceById(database, 'spc_b')).map((row) => row.name)).toEqual(['Beta']);
      expect(await spaceById(database, 'spc_none')).toEqual([]);
      await database.transaction().execute(async (transaction) => {
        await renameUnlessNamed(transaction, 'spc_a', 'Gamma');
        await renameUnlessNamed(transaction, 'spc_b', 'Beta');
      });
      const rows = await database.selectFrom('spaces').select(['id', 'name', 'state']).orderBy('id').execute();
      expect(rows).toEqual([
        { id: 'spc_a', name: 'Gamma', state: 'deleting' },
        { id: 'spc_b', name: 'Beta', state: 'active' },
      ]);
    },
  );

  it('refuses a query whose argument is written into the SQL instead of bound', async () => {
    const { database } = await open('sqlite');
    const inlined = prepareQuery((database, id: string) =>
      database.selectFrom('spaces').selectAll().where('id', '=', sql.lit(id)),
    );
    await expect(inlined(database, 'spc_a')).rejects.toThrow(/argument 0 does not reach the SQL as a bound value/);
    const ignored = prepareQuery((database, _id: string) => database.selectFrom('spaces').selectAll());
    await expect(ignored(database, 'spc_a')).rejects.toThrow(/argument 0 does not reach the SQL/);
  });
});
