import {
  type DatabaseIntrospector,
  type DatabaseMetadata,
  type DatabaseMetadataOptions,
  type Kysely,
  PostgresDialect,
  type SchemaMetadata,
  sql,
  type TableMetadata,
} from 'kysely';

/**
 * PostgreSQL with an introspector that reads only the schemas on the connection's search path.
 *
 * Kysely's migrator asks the introspector, on every start, whether its own tables exist. The
 * stock PostgreSQL introspector answers by reading every table and column of the whole database
 * and calling name-based functions on each (`pg_get_serial_sequence`, `has_schema_privilege`).
 * When another tenant of the database drops or changes a schema, table or column between the
 * catalogue read and those calls, the call fails ("schema … does not exist", "relation … does
 * not exist", "column … does not exist"), and the platform's start failed with it although
 * nothing was wrong with its own schema. CI saw all three. The platform's pool sets its
 * `search_path` to its schema (D-P13), so the tables it needs are exactly those, and this
 * introspector reads them with catalogue joins by oid only: nothing in it looks a name up again.
 */
export class SearchPathPostgresDialect extends PostgresDialect {
  override createIntrospector(database: Kysely<unknown>): DatabaseIntrospector {
    return new SearchPathIntrospector(database);
  }
}

interface ColumnRow {
  readonly schema: string;
  readonly table: string;
  readonly table_type: string;
  readonly column: string;
  readonly not_null: boolean;
  readonly has_default: boolean;
  readonly type: string;
  readonly type_schema: string;
  readonly column_description: string | null;
  readonly auto_incrementing: boolean;
}

/** Kysely's own tables, left out unless asked for (as the stock introspector does). */
const kyselyTables = ['kysely_migration', 'kysely_migration_lock'];

class SearchPathIntrospector implements DatabaseIntrospector {
  constructor(private readonly database: Kysely<unknown>) {}

  async getSchemas(): Promise<SchemaMetadata[]> {
    const { rows } = await sql<{ name: string }>`select nspname as name from pg_catalog.pg_namespace`.execute(this.database);
    return rows.map(({ name }) => ({ name }));
  }

  /**
   * The tables and views of the schemas on the search path, with their columns. A column is
   * auto-incrementing when it is an identity column or owns a sequence (what `serial` makes),
   * read from `pg_depend` by oid rather than by `pg_get_serial_sequence`'s name lookup.
   */
  async getTables(options: DatabaseMetadataOptions = { withInternalKyselyTables: false }): Promise<TableMetadata[]> {
    const { rows } = await sql<ColumnRow>`
      select ns.nspname as schema, c.relname as table, c.relkind as table_type,
        a.attname as column, a.attnotnull as not_null, a.atthasdef as has_default,
        typ.typname as type, typns.nspname as type_schema,
        col_description(a.attrelid, a.attnum) as column_description,
        (a.attidentity <> '' or exists (
          select 1 from pg_catalog.pg_depend d join pg_catalog.pg_class s on s.oid = d.objid
          where d.refobjid = c.oid and d.refobjsubid = a.attnum and d.deptype in ('a', 'i')
            and d.classid = 'pg_catalog.pg_class'::regclass and s.relkind = 'S'
        )) as auto_incrementing
      from pg_catalog.pg_attribute a
      join pg_catalog.pg_class c on c.oid = a.attrelid
      join pg_catalog.pg_namespace ns on ns.oid = c.relnamespace
      join pg_catalog.pg_type typ on typ.oid = a.atttypid
      join pg_catalog.pg_namespace typns on typns.oid = typ.typnamespace
      where ns.nspname = any(current_schemas(false))
        and c.relkind in ('r', 'v', 'p') and a.attnum > 0 and not a.attisdropped
      order by ns.nspname, c.relname, a.attnum`.execute(this.database);
    const tables = new Map<string, TableMetadata>();
    for (const row of rows) {
      if (!options.withInternalKyselyTables && kyselyTables.includes(row.table)) continue;
      const key = `${row.schema}.${row.table}`;
      let table = tables.get(key);
      if (!table) {
        table = { name: row.table, schema: row.schema, isView: row.table_type === 'v', columns: [] };
        tables.set(key, table);
      }
      table.columns.push({
        name: row.column,
        dataType: row.type,
        dataTypeSchema: row.type_schema,
        isNullable: !row.not_null,
        hasDefaultValue: row.has_default,
        isAutoIncrementing: row.auto_incrementing,
        ...(row.column_description === null ? {} : { comment: row.column_description }),
      });
    }
    return [...tables.values()];
  }

  async getMetadata(options?: DatabaseMetadataOptions): Promise<DatabaseMetadata> {
    return { tables: await this.getTables(options) };
  }
}
