import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { migrateToLatest, openPlatformDatabase } from '../src/adapters/database/index.js';
import { dialects, postgresUrl } from './harness.js';

/**
 * Kysely's migrator knows a migration by its name only: a deployed database that ran
 * `0001-initial` never runs it again, so rewriting an old migration must not change the schema
 * it creates (a fresh database would otherwise differ from an upgraded one). These tests migrate
 * a fresh database on each engine and compare the whole resulting schema with a snapshot taken
 * before the migrations were rewritten with the table helpers (`migrations/tables.ts`).
 */
describe('the schema the migrations create', () => {
  it('on SQLite: the DDL SQLite keeps, table by table and index by index', async () => {
    const directory = mkdtempSync(path.join(tmpdir(), 'agentloom-schema-'));
    const file = path.join(directory, 'platform.db');
    try {
      const handle = openPlatformDatabase({ dialect: 'sqlite', file });
      await migrateToLatest(handle.database, 'sqlite');
      await handle.close();
      const sqlite = new Database(file, { readonly: true });
      const rows = sqlite
        .prepare(
          `select type, name, tbl_name as "table", sql from sqlite_master where name not like 'sqlite_%' order by type, name`,
        )
        .all();
      sqlite.close();
      await expect(`${JSON.stringify(rows, null, 2)}\n`).toMatchFileSnapshot('./fixtures/migrated-schema.sqlite.json');
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });

  describe.skipIf(!dialects.includes('postgres'))('on PostgreSQL', () => {
    const schema = `migrated_schema_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
    afterAll(async () => {
      const client = new pg.Client({ connectionString: postgresUrl });
      await client.connect();
      await client.query(`drop schema if exists "${schema}" cascade`);
      await client.end();
    });

    it('columns, constraints (with their columns and delete rules) and indexes', async () => {
      const handle = openPlatformDatabase({ dialect: 'postgres', url: postgresUrl, schema });
      await migrateToLatest(handle.database, 'postgres', schema);
      await handle.close();
      const client = new pg.Client({ connectionString: postgresUrl });
      await client.connect();
      try {
        const columns = await client.query(
          `select table_name, column_name, ordinal_position, data_type, is_nullable, column_default
             from information_schema.columns where table_schema = $1 order by table_name, ordinal_position`,
          [schema],
        );
        const constraints = await client.query(
          `select c.table_name, c.constraint_name, c.constraint_type,
                  (select string_agg(k.column_name, ',' order by k.ordinal_position) from information_schema.key_column_usage k
                    where k.constraint_schema = c.constraint_schema and k.constraint_name = c.constraint_name) as columns,
                  r.delete_rule,
                  (select string_agg(u.table_name || '.' || u.column_name, ',') from information_schema.constraint_column_usage u
                    where c.constraint_type = 'FOREIGN KEY' and u.constraint_schema = c.constraint_schema
                      and u.constraint_name = c.constraint_name) as target
             from information_schema.table_constraints c
             left join information_schema.referential_constraints r
               on r.constraint_schema = c.constraint_schema and r.constraint_name = c.constraint_name
            where c.table_schema = $1 and c.constraint_type <> 'CHECK'
            order by c.table_name, c.constraint_name`,
          [schema],
        );
        const indexes = await client.query(
          `select tablename, indexname, replace(indexdef, $2, 'SCHEMA') as indexdef
             from pg_indexes where schemaname = $1 order by tablename, indexname`,
          [schema, schema],
        );
        const description = { columns: columns.rows, constraints: constraints.rows, indexes: indexes.rows };
        await expect(`${JSON.stringify(description, null, 2)}\n`).toMatchFileSnapshot('./fixtures/migrated-schema.postgres.json');
      } finally {
        await client.end();
      }
    });
  });
});
