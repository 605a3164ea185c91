import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { migrateToLatest, openPlatformDatabase } from '../src/adapters/database/index.js';
import { dialects, postgresUrl } from './harness.js';

describe.skipIf(!dialects.includes('postgres'))('migrations in a schema of a shared PostgreSQL database', () => {
  const prefix = `migrate_schemas_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  const schemas = [`${prefix}_a`, `${prefix}_b`];
  afterAll(async () => {
    const client = new pg.Client({ connectionString: postgresUrl });
    await client.connect();
    for (const schema of schemas) await client.query(`drop schema if exists "${schema}" cascade`);
    await client.end();
  });

  it('migrates a new schema while another schema of the database already holds migrated platform tables', async () => {
    for (const schema of schemas) {
      const handle = openPlatformDatabase({ dialect: 'postgres', url: postgresUrl, schema });
      try {
        expect(await migrateToLatest(handle.database, 'postgres', schema)).toContain('0001-initial');
        expect(await migrateToLatest(handle.database, 'postgres', schema)).toEqual([]);
      } finally {
        await handle.close();
      }
    }
    const client = new pg.Client({ connectionString: postgresUrl });
    await client.connect();
    const { rows } = await client.query<{ table_schema: string }>(
      `select table_schema from information_schema.tables where table_name = 'kysely_migration_lock' and table_schema like $1`,
      [`${prefix}%`],
    );
    await client.end();
    expect(rows.map((row) => row.table_schema).sort()).toEqual(schemas);
  });

  it("lists only its own schema's tables and columns, as Kysely's introspector describes them", async () => {
    const [own, other] = schemas as [string, string];
    const handle = openPlatformDatabase({ dialect: 'postgres', url: postgresUrl, schema: own });
    try {
      await sql`create table counters (id serial primary key, ident int generated always as identity, note text)`.execute(
        handle.database,
      );
      await sql`comment on column counters.note is 'free text'`.execute(handle.database);
      const tables = await handle.database.introspection.getTables();
      expect(new Set(tables.map((table) => table.schema))).toEqual(new Set([own]));
      expect(tables.map((table) => table.name)).toContain('apps');
      expect(tables.map((table) => table.name)).not.toContain('kysely_migration');
      const internal = await handle.database.introspection.getTables({ withInternalKyselyTables: true });
      expect(internal.map((table) => table.name)).toContain('kysely_migration_lock');
      const counters = tables.find((table) => table.name === 'counters');
      expect(counters?.columns).toEqual([
        {
          name: 'id',
          dataType: 'int4',
          dataTypeSchema: 'pg_catalog',
          isNullable: false,
          hasDefaultValue: true,
          isAutoIncrementing: true,
        },
        {
          name: 'ident',
          dataType: 'int4',
          dataTypeSchema: 'pg_catalog',
          isNullable: false,
          hasDefaultValue: false,
          isAutoIncrementing: true,
        },
        {
          name: 'note',
          dataType: 'text',
          dataTypeSchema: 'pg_catalog',
          isNullable: true,
          hasDefaultValue: false,
          isAutoIncrementing: false,
          comment: 'free text',
        },
      ]);
      // The other schema holds the same tables; none of them is listed.
      expect(tables.some((table) => table.schema === other)).toBe(false);
    } finally {
      await handle.close();
    }
  });

  it('migrates while other tenants keep creating, changing and dropping schemas, tables and columns', async () => {
    const schema = `${prefix}_c`;
    schemas.push(schema);
    const churn = new pg.Client({ connectionString: postgresUrl });
    await churn.connect();
    let stop = false;
    let dropped = 0;
    // Other tenants' migrations and clean-ups: schemas, tables and columns come and go while this
    // one migrates. Kysely's stock introspector read them all and failed on each (CI saw 3F000,
    // 42P01 and 42703); this churn failed it within a few rounds.
    const churning = (async () => {
      while (!stop) {
        const other = `${prefix}_churn_${dropped % 4}`;
        await churn.query(`create schema if not exists "${other}"`);
        await churn.query(`create table if not exists "${other}".t (id serial, a int)`);
        await churn.query(`alter table "${other}".t add column b int`);
        await churn.query(`alter table "${other}".t drop column a`);
        await churn.query(`drop table "${other}".t`);
        await churn.query(`drop schema "${other}" cascade`);
        dropped += 1;
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    })();
    try {
      for (let round = 0; round < 6; round += 1) {
        const handle = openPlatformDatabase({ dialect: 'postgres', url: postgresUrl, schema: `${schema}${round}` });
        schemas.push(`${schema}${round}`);
        try {
          expect(await migrateToLatest(handle.database, 'postgres', `${schema}${round}`)).toContain('0001-initial');
        } finally {
          await handle.close();
        }
      }
    } finally {
      stop = true;
      await churning;
      await churn.end();
    }
    expect(dropped).toBeGreaterThan(0);
  });
});
