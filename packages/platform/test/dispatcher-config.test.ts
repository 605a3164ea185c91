import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type ConfigurationProblemError, dispatcherKind, loadConfig, pgBossSchemaOf } from '../src/config/index.js';

const directory = mkdtempSync(path.join(tmpdir(), 'agentloom-dispatcher-config-'));
const secret = 'a-secret-key-long-enough-for-the-platform-0123';
const postgres = { AGENTLOOM_DATABASE_URL: 'postgres://db.example/agentloom', AGENTLOOM_SECRET_KEY: secret };

/** `AGENTLOOM_DISPATCHER` (D-P13): pg-boss by default on PostgreSQL, the lease table on SQLite, either by choice. */
describe('dispatcher configuration', () => {
  afterAll(() => rmSync(directory, { recursive: true, force: true }));

  it('defaults to pg-boss on PostgreSQL and to the lease table on SQLite', () => {
    expect(dispatcherKind(loadConfig(postgres, {}, directory))).toBe('pg-boss');
    expect(dispatcherKind(loadConfig({ AGENTLOOM_SECRET_KEY: secret }, {}, directory))).toBe('lease-table');
  });

  it('takes the lease table on PostgreSQL when asked', () => {
    expect(dispatcherKind(loadConfig({ ...postgres, AGENTLOOM_DISPATCHER: 'lease-table' }, {}, directory))).toBe('lease-table');
  });

  it('names pg-boss its own schema: pgboss, <schema>_pgboss beside a named platform schema, or the one configured', () => {
    expect(pgBossSchemaOf(loadConfig(postgres, {}, directory))).toBe('pgboss');
    const named = { ...postgres, AGENTLOOM_DATABASE_URL: 'postgres://db.example/agentloom?schema=tenant_a' };
    expect(pgBossSchemaOf(loadConfig(named, {}, directory))).toBe('tenant_a_pgboss');
    expect(pgBossSchemaOf(loadConfig({ ...named, AGENTLOOM_PGBOSS_SCHEMA: 'queues' }, {}, directory))).toBe('queues');
  });

  it('refuses an unknown dispatcher, pg-boss on SQLite and a schema name pg-boss cannot use', () => {
    const problems = (environment: NodeJS.ProcessEnv) => {
      try {
        loadConfig(environment, {}, directory);
        return [];
      } catch (error) {
        return (error as ConfigurationProblemError).problems;
      }
    };
    expect(problems({ ...postgres, AGENTLOOM_DISPATCHER: 'redis' })).toEqual([
      'AGENTLOOM_DISPATCHER "redis" must be pg-boss or lease-table.',
    ]);
    expect(problems({ AGENTLOOM_SECRET_KEY: secret, AGENTLOOM_DISPATCHER: 'pg-boss' })).toEqual([
      'AGENTLOOM_DISPATCHER=pg-boss needs PostgreSQL (AGENTLOOM_DATABASE_URL=postgres://…).',
    ]);
    expect(problems({ ...postgres, AGENTLOOM_PGBOSS_SCHEMA: 'bad-name' })).toHaveLength(1);
  });
});
