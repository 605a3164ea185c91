/**
 * Crash recovery across real processes (R-1…; A-2), on SQLite and on
 * PostgreSQL: a run is SIGKILLed at many points and resumed by a new process from the same store;
 * the resumed outcome must equal the uncrashed one, with no redone saved result, one input, one
 * charge per loop and the same deadline. PostgreSQL runs the full sweep over every durable write
 * of the parallel, retry-on run and every third point of the other sweeps.
 */
import { describe } from 'vitest';
import { describeWithPostgres, dropSchema, postgresUrlWithSchema, uniqueSchemaName } from '../postgres/postgres-availability.js';
import { postgresCrashTarget, sqliteCrashTarget } from './crash-store-target.js';
import { crashRecoverySuite, everyThirdPoint } from './crash-suite.js';

describe('crash recovery on SQLite', () => {
  crashRecoverySuite({ createTarget: sqliteCrashTarget });
});

await describeWithPostgres('crash recovery on PostgreSQL', () => {
  crashRecoverySuite({
    createTarget: () => {
      const schema = uniqueSchemaName('crash');
      return postgresCrashTarget({ schema, storeUrl: postgresUrlWithSchema(schema), dropSchema });
    },
    sample: everyThirdPoint,
  });
});
