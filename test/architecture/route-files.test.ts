/**
 * Issue 30: route files declare HTTP operations and call the application; they hold no SQL. Kept
 * by rule: no Kysely query builder entry point and no raw `sql` template in `http/routes`.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const routes = fileURLToPath(new URL('../../packages/platform/src/http/routes/', import.meta.url));
const query = /\.(selectFrom|insertInto|updateTable|deleteFrom|replaceInto|mergeInto)\(|\bsql`/;

it('no route file of the platform holds SQL', () => {
  const withSql = readdirSync(routes)
    .filter((name) => name.endsWith('.ts'))
    .filter((name) => query.test(readFileSync(join(routes, name), 'utf8')));
  expect(withSql).toEqual([]);
});
