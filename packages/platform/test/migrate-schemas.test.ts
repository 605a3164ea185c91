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

  it('migrates while other tenants keep creating and dropping schemas (the catalogue read is retried)', async () => {
    const schema = `${prefix}_c`;
    schemas.push(schema);
    const churn = new pg.Client({ connectionString: postgresUrl });
    await churn.connect();
    let stop = false;
    let dropped = 0;
    // Another tenant's clean-up: schemas with a table come and go while this one migrates.
    const churning = (async () => {
      while (!stop) {
        const other = `${prefix}_churn_${dropped % 4}`;
        await churn.query(`create schema if not exists "${other}"`);
        await churn.query(`create table if not exists "${other}".t (id int)`);
        await churn.query(`drop schema "${other}" cascade`);
        dropped += 1;
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    })();
    try {
      for (let round = 0; round < 3; round += 1) {
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
