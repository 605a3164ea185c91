import type { Kysely } from 'kysely';
import { createTable } from './tables.js';

/**
 * MCP sign-in from the console (issue 32): one row per MCP server resource someone connected
 * (or is connecting) over OAuth. `record_sealed` is the SDK's authorization record (tokens, the
 * client registration, the PKCE verifier of a sign-in under way) sealed with the instance key;
 * `pending_state` is the `state` of the sign-in under way, so the callback finds its row without
 * opening every record; `redirect_url` is the callback the authorization server was given. The
 * row goes with its resource (cascade).
 */
export async function up(database: Kysely<unknown>): Promise<void> {
  await createTable(
    database,
    'mcp_sign_ins',
    {
      resource_id: 'text primary key references resources.id on delete cascade',
      space_id: 'text not null',
      record_sealed: 'text',
      pending_state: 'text',
      redirect_url: 'text not null',
      updated_by: 'text not null',
      updated_at: 'text not null',
    },
    { indexes: { mcp_sign_ins_state: ['pending_state'] } },
  );
}

export async function down(database: Kysely<unknown>): Promise<void> {
  await database.schema.dropTable('mcp_sign_ins').execute();
}
