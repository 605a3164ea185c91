import { randomToken } from '../../adapters/crypto/index.js';
import { findWebhookSecret, upsertWebhookSecret } from '../../adapters/database/repositories/webhook-repository.js';
import type { PlatformContext } from '../context.js';

/**
 * Makes (or replaces) an app's webhook signing secret and answers it: the only time it is shown.
 * The platform keeps it sealed with its key, because it must sign with it later; a replaced
 * secret signs nothing from the next delivery on.
 */
export async function rotateWebhookSecret(services: PlatformContext, appId: string, actor: string): Promise<string> {
  const secret = `whsec_${randomToken()}`;
  const at = services.now().toISOString();
  await upsertWebhookSecret(services.database, {
    appId,
    sealed: services.secretBox.seal(secret),
    createdBy: actor,
    createdAt: at,
  });
  return secret;
}

/** The app's signing secret, or undefined when none was made. */
export async function readWebhookSecret(
  services: Pick<PlatformContext, 'database' | 'secretBox'>,
  appId: string,
): Promise<string | undefined> {
  const sealed = await findWebhookSecret(services.database, appId);
  return sealed === undefined ? undefined : services.secretBox.open(sealed);
}
