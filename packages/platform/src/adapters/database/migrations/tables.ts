import type { ColumnDefinitionBuilder, CreateTableBuilder, Kysely } from 'kysely';

/**
 * A column written as the words of its SQL definition, in this order: the type (`text` or
 * `integer`, the portable types every migration uses, D-P13), then any of `primary key`,
 * `not null`, `unique`, `default <integer or 'text'>`, `references <table>.<column>` and
 * `on delete cascade`. Example: `'text not null references apps.id on delete cascade'`.
 *
 * The words only choose Kysely's column builder calls (`notNull()`, `references()`, …); Kysely
 * still writes the DDL for each engine, so a migration written this way creates exactly what the
 * builder calls it replaced created (test/migrated-schema.test.ts compares the whole schema).
 */
export type ColumnDefinition = string;

const definitionPattern =
  /^(text|integer)( primary key)?( not null)?( unique)?(?: default (-?\d+|'[^']*'))?(?: references (\w+\.\w+)( on delete cascade)?)?$/;

/** The Kysely type and builder calls of one column definition; throws on words it does not know. */
function parseColumn(definition: ColumnDefinition): {
  type: 'text' | 'integer';
  build: (column: ColumnDefinitionBuilder) => ColumnDefinitionBuilder;
} {
  const match = definitionPattern.exec(definition);
  if (!match) throw new Error(`Column definition not understood: "${definition}"`);
  const [, type, primaryKey, notNull, unique, defaultValue, target, cascade] = match;
  return {
    type: type as 'text' | 'integer',
    build: (column) => {
      let built = column;
      if (primaryKey) built = built.primaryKey();
      if (notNull) built = built.notNull();
      if (unique) built = built.unique();
      if (defaultValue !== undefined)
        built = built.defaultTo(defaultValue.startsWith("'") ? defaultValue.slice(1, -1) : Number(defaultValue));
      if (target) built = built.references(target);
      if (cascade) built = built.onDelete('cascade');
      return built;
    },
  };
}

/**
 * What spans several columns of a table, each by its name: the composite primary key (at most
 * one), unique constraints, and the indexes created right after the table.
 */
export interface TableKeys<C extends string> {
  readonly primaryKey?: Readonly<Record<string, C[]>>;
  readonly unique?: Readonly<Record<string, C[]>>;
  readonly indexes?: Readonly<Record<string, C[]>>;
}

/** Creates a table from its columns, in the order written, with its keys and indexes. */
export async function createTable<C extends string>(
  database: Kysely<unknown>,
  name: string,
  columns: Record<C, ColumnDefinition>,
  keys: TableKeys<NoInfer<C>> = {},
): Promise<void> {
  let table: CreateTableBuilder<string, string> = database.schema.createTable(name);
  for (const [column, definition] of Object.entries<ColumnDefinition>(columns)) {
    const { type, build } = parseColumn(definition);
    table = table.addColumn(column, type, build);
  }
  for (const [constraint, keyColumns] of Object.entries(keys.primaryKey ?? {}))
    table = table.addPrimaryKeyConstraint(constraint, keyColumns);
  for (const [constraint, keyColumns] of Object.entries(keys.unique ?? {}))
    table = table.addUniqueConstraint(constraint, keyColumns);
  await table.execute();
  for (const [index, indexColumns] of Object.entries<string[]>(keys.indexes ?? {})) {
    await database.schema.createIndex(index).on(name).columns(indexColumns).execute();
  }
}

/** Adds columns to an existing table, one `alter table` each (SQLite adds one column at a time). */
export async function addColumns(
  database: Kysely<unknown>,
  name: string,
  columns: Record<string, ColumnDefinition>,
): Promise<void> {
  for (const [column, definition] of Object.entries(columns)) {
    const { type, build } = parseColumn(definition);
    await database.schema.alterTable(name).addColumn(column, type, build).execute();
  }
}
