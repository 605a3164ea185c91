import { type ApiKeyScope, createApiKey, listApiKeys, revokeApiKey, withCreators } from '../../adapters/identity/index.js';
import { notFoundError } from '../../domain/errors.js';
import type { PlatformContext } from '../context.js';

export type { ApiKeyScope } from '../../adapters/identity/index.js';

/** What the API key use cases work with. */
export type KeyContext = Pick<PlatformContext, 'database' | 'now'>;

/** The keys of an app or of a space (its own, not its apps'), with their creators; prefixes only. */
export async function listKeys(context: KeyContext, scope: ApiKeyScope) {
  return withCreators(context.database, await listApiKeys(context.database, scope));
}

/** Creates a space key (`appId` null) or an app key: the secret is answered once, never stored. */
export async function createKey(
  context: KeyContext,
  owner: { spaceId: string; appId: string | null },
  name: string,
  actor: string,
) {
  const { row, secret } = await createApiKey(context.database, { ...owner, name, createdBy: actor, now: context.now() });
  const [shown] = await withCreators(context.database, [row]);
  return { key: shown as NonNullable<typeof shown>, secret };
}

/** Revokes a live key of the scope; `not-found` when there is none. */
export async function revokeKey(context: KeyContext, scope: ApiKeyScope, keyId: string): Promise<void> {
  if (!(await revokeApiKey(context.database, scope, keyId, context.now()))) throw notFoundError('The key');
}
