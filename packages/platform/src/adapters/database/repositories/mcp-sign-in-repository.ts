import type { McpAuthorizationRecord, McpTokenStore } from '@agentloom/sdk/capabilities/mcp';
import type { Kysely } from 'kysely';
import type { SecretBox } from '../../crypto/secret-box.js';
import type { DatabaseDialect } from '../connect.js';
import type { Queryable } from '../queryable.js';
import type { PlatformDatabase } from '../schema.js';
import type { McpSignInsTable } from '../schema-runs.js';

/** The sign-in row of an MCP server resource, if anyone connected it or is connecting it. */
export function findMcpSignIn(database: Queryable, resourceId: string): Promise<McpSignInsTable | undefined> {
  return database.selectFrom('mcp_sign_ins').selectAll().where('resource_id', '=', resourceId).executeTakeFirst();
}

/** The sign-in row whose sign-in under way sent `state` (the callback's lookup). */
export function findMcpSignInByState(database: Queryable, state: string): Promise<McpSignInsTable | undefined> {
  return database.selectFrom('mcp_sign_ins').selectAll().where('pending_state', '=', state).executeTakeFirst();
}

/** Creates the row of a sign-in about to start, or points an existing one at `redirectUrl`. */
export async function prepareMcpSignIn(
  database: Queryable,
  row: { resourceId: string; spaceId: string; redirectUrl: string; actor: string; now: string },
): Promise<void> {
  await database
    .insertInto('mcp_sign_ins')
    .values({
      resource_id: row.resourceId,
      space_id: row.spaceId,
      record_sealed: null,
      pending_state: null,
      redirect_url: row.redirectUrl,
      updated_by: row.actor,
      updated_at: row.now,
    })
    .onConflict((conflict) =>
      conflict.column('resource_id').doUpdateSet({ redirect_url: row.redirectUrl, updated_by: row.actor, updated_at: row.now }),
    )
    .execute();
}

/** Forgets a resource's sign-in (tokens, registration, any sign-in under way). */
export async function deleteMcpSignIn(database: Queryable, resourceId: string): Promise<boolean> {
  const result = await database.deleteFrom('mcp_sign_ins').where('resource_id', '=', resourceId).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Opens a sealed record; a row with none reads as no record. */
export function openMcpRecord(secretBox: SecretBox, sealed: string | null): McpAuthorizationRecord | undefined {
  return sealed ? (JSON.parse(secretBox.open(sealed)) as McpAuthorizationRecord) : undefined;
}

/**
 * The SDK's `McpTokenStore` for one MCP server resource, backed by its `mcp_sign_ins` row: the
 * record is sealed with the instance key at rest, and `update` reads, changes and writes it in
 * one transaction with the row locked (PostgreSQL `FOR UPDATE`; SQLite transactions are
 * serial), so two workers refreshing the same token never lose a write. The SDK keys records by
 * server name; a resource has one sign-in whatever name an agent knows it by, so the key is
 * ignored. The row must exist (`prepareMcpSignIn`): without it the store holds nothing and an
 * update writes nothing, so a server nobody connected never gets a record.
 */
export class DatabaseMcpTokenStore implements McpTokenStore {
  constructor(
    private readonly database: Kysely<PlatformDatabase>,
    private readonly dialect: DatabaseDialect,
    private readonly secretBox: SecretBox,
    private readonly resourceId: string,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async load(): Promise<McpAuthorizationRecord | undefined> {
    const row = await findMcpSignIn(this.database, this.resourceId);
    return row ? openMcpRecord(this.secretBox, row.record_sealed) : undefined;
  }

  async update(
    _server: string,
    change: (current: McpAuthorizationRecord | undefined) => McpAuthorizationRecord | undefined,
  ): Promise<void> {
    await this.database.transaction().execute(async (transaction) => {
      let query = transaction.selectFrom('mcp_sign_ins').selectAll().where('resource_id', '=', this.resourceId);
      if (this.dialect === 'postgres') query = query.forUpdate();
      const row = await query.executeTakeFirst();
      if (!row) return;
      const next = change(openMcpRecord(this.secretBox, row.record_sealed));
      await transaction
        .updateTable('mcp_sign_ins')
        .set({
          record_sealed: next ? this.secretBox.seal(JSON.stringify(next)) : null,
          pending_state: next?.pending?.state ?? null,
          updated_at: this.now().toISOString(),
        })
        .where('resource_id', '=', this.resourceId)
        .execute();
    });
  }
}
