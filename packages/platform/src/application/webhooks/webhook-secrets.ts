import { randomToken } from '../../adapters/crypto/index.js';
import type { PlatformContext } from '../context.js';

/**
 * Makes (or replaces) an app's webhook signing secret and answers it: the only time it is shown.
 * The platform keeps it sealed with its key, because it must sign with it later; a replaced
 * secret signs nothing from the next delivery on.
 */
export async function rotateWebhookSecret(services: PlatformContext, appId: string, actor: string): Promise<string> {
  const secret = `whsec_${randomToken()}`;
  const at = services.now().toISOString();
  await services.database
    .insertInto('app_webhook_secrets')
    .values({ app_id: appId, secret_sealed: services.secretBox.seal(secret), created_by: actor, created_at: at })
    .onConflict((conflict) =>
      conflict
        .column('app_id')
        .doUpdateSet({ secret_sealed: services.secretBox.seal(secret), created_by: actor, created_at: at }),
    )
    .execute();
  return secret;
}

/** The app's signing secret, or undefined when none was made. */
export async function readWebhookSecret(
  services: Pick<PlatformContext, 'database' | 'secretBox'>,
  appId: string,
): Promise<string | undefined> {
  const row = await services.database
    .selectFrom('app_webhook_secrets')
    .select('secret_sealed')
    .where('app_id', '=', appId)
    .executeTakeFirst();
  return row ? services.secretBox.open(row.secret_sealed) : undefined;
}
