import type { Kysely } from 'kysely';
import { createTable } from './tables.js';

/**
 * Router sessions (issue 33): the dialogue state the platform holds for each conversation with a
 * router app (`@agentloom/intent` keeps none, N-14), the run the router started for the active
 * action, and a turn counter that makes concurrent turns of one session conflict instead of
 * overwriting each other; and each session's transcript (`router_turns`). Rows go with their app
 * (foreign keys, cascade).
 */
export async function up(database: Kysely<unknown>): Promise<void> {
  await createTable(
    database,
    'router_sessions',
    {
      id: 'text primary key',
      app_id: 'text not null references apps.id on delete cascade',
      space_id: 'text not null',
      created_by: 'text not null',
      state: 'text not null',
      turns: 'integer not null',
      created_at: 'text not null',
      updated_at: 'text not null',
    },
    { indexes: { router_sessions_app: ['app_id'] } },
  );
  // The transcript: each turn's message and what the router answered (commands, trace, reply, effects).
  await createTable(
    database,
    'router_turns',
    {
      session_id: 'text not null references router_sessions.id on delete cascade',
      turn: 'integer not null',
      text: 'text not null',
      result: 'text not null',
      created_at: 'text not null',
    },
    { primaryKey: { router_turns_pk: ['session_id', 'turn'] } },
  );
}

export async function down(database: Kysely<unknown>): Promise<void> {
  await database.schema.dropTable('router_turns').execute();
  await database.schema.dropTable('router_sessions').execute();
}
