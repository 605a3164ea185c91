import { type Compilable, CompiledQuery } from 'kysely';
import type { Queryable } from './queryable.js';

/** What `prepareQuery` gives: runs the query with these arguments; answers its rows. */
export type PreparedQuery<Args extends readonly unknown[], Row> = (database: Queryable, ...args: Args) => Promise<Row[]>;

/** The SQL of every prepared query compiled so far (any database): `isPreparedText`. */
const preparedTexts = new Set<string>();

/**
 * Whether `sql` is the text of a query of `prepareQuery`: its shape never changes, so a
 * PostgreSQL connection may keep it as a named statement (`namedStatementPool`).
 */
export function isPreparedText(sql: string): boolean {
  return preparedTexts.has(sql);
}

/**
 * Marks `sql`, a raw statement whose text never changes (a fixed text built once, its values all
 * bound), as one a PostgreSQL connection may keep as a named statement, like the queries of
 * `prepareQuery`; answers it. For the hot statements written as SQL rather than with Kysely's
 * builder (the pg-boss dispatcher's claim, renewal and completion, pg-boss's insert of a job):
 * unnamed, PostgreSQL parsed and planned each on every call (issue 34).
 */
export function preparedText(sql: string): string {
  preparedTexts.add(sql);
  return sql;
}

/** The stand-in of argument `index` while the query is built once: a text no caller sends. */
const placeholderOf = (index: number) => `\u0000agentloom-argument-${index}\u0000`;

/** A compiled query, and for each of its parameters the argument it takes (or -1: a constant). */
interface Template {
  sql: string;
  parameters: readonly unknown[];
  argumentAt: readonly number[];
}

/**
 * A query of the hot paths (issue 34) built and compiled once per database rather than on every
 * call: Kysely's builder and compiler made up most of the cost of the platform's short queries
 * (an API key, an app, a run by id) in a burst of runs. `build` is called once with stand-ins for
 * its arguments, the compiled SQL is kept, and each call binds the real arguments in their places.
 *
 * So the query's shape may not depend on the arguments (no branching on them), and each argument
 * must reach the SQL as a bound value (not inlined, not transformed): both are checked when the
 * query is first compiled, which throws rather than run a query that would bind the wrong values.
 * Compiled per database (its adapter and plugins), so a platform on SQLite and one on PostgreSQL
 * in the same process each get their own SQL.
 */
export function prepareQuery<Args extends readonly unknown[], Row>(
  build: (database: Queryable, ...args: Args) => Compilable<Row>,
): PreparedQuery<Args, Row> {
  const templates = new WeakMap<object, Template>();
  const compile = (database: Queryable, arity: number): Template => {
    const placeholders = Array.from({ length: arity }, (_, index) => placeholderOf(index));
    const compiled = build(database, ...(placeholders as unknown as Args)).compile();
    const argumentAt = compiled.parameters.map((parameter) => placeholders.indexOf(parameter as string));
    const unbound = placeholders.findIndex(
      (placeholder, index) => !argumentAt.includes(index) || compiled.sql.includes(placeholder),
    );
    if (unbound !== -1)
      throw new Error(`prepareQuery: argument ${unbound} does not reach the SQL as a bound value: ${compiled.sql}`);
    preparedTexts.add(compiled.sql);
    return { sql: compiled.sql, parameters: compiled.parameters, argumentAt };
  };
  return async (database, ...args) => {
    const key = database.getExecutor().adapter;
    let template = templates.get(key);
    if (!template) {
      template = compile(database, args.length);
      templates.set(key, template);
    }
    const { argumentAt, parameters } = template;
    const bound = parameters.map((parameter, index) => {
      const at = argumentAt[index] as number;
      return at === -1 ? parameter : args[at];
    });
    const result = await database.executeQuery<Row>(CompiledQuery.raw(template.sql, bound));
    return result.rows;
  };
}
