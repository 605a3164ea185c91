import type { Kysely } from 'kysely';

/**
 * MCP sign-in from the console (issue 32): one row per MCP server resource someone connected
 * (or is connecting) over OAuth. `record_sealed` is the SDK's authorization record (tokens, the
 * client registration, the PKCE verifier of a sign-in under way) sealed with the instance key;
 * `pending_state` is the `state` of the sign-in under way, so the callback finds its row without
 * opening every record; `redirect_url` is the callback the authorization server was given. The
 * row goes with its resource (cascade).
 */
export async function up(database: Kysely<unknown>): Promise<void> {
  await database.schema
    .createTable('mcp_sign_ins')
    .addColumn('resource_id', 'text', (column) => column.primaryKey().references('resources.id').onDelete('cascade'))
    .addColumn('space_id', 'text', (column) => column.notNull())
    .addColumn('record_sealed', 'text')
    .addColumn('pending_state', 'text')
    .addColumn('redirect_url', 'text', (column) => column.notNull())
    .addColumn('updated_by', 'text', (column) => column.notNull())
    .addColumn('updated_at', 'text', (column) => column.notNull())
    .execute();
  await database.schema.createIndex('mcp_sign_ins_state').on('mcp_sign_ins').column('pending_state').execute();
}

export async function down(database: Kysely<unknown>): Promise<void> {
  await database.schema.dropTable('mcp_sign_ins').execute();
}
