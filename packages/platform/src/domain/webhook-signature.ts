import { createHmac, timingSafeEqual } from 'node:crypto';

/** The header that carries a completion webhook's signature: `t=<unix seconds>,v1=<hex HMAC>`. */
export const webhookSignatureHeader = 'agentloom-signature';

/**
 * Signs a webhook body: HMAC-SHA256 with the app's secret over `<timestamp>.<body>`, so a
 * receiver can check that the platform sent exactly these bytes, and refuse a replay of an old
 * delivery by its timestamp.
 */
export function signWebhook(secret: string, body: string, timestampSeconds: number): string {
  const digest = createHmac('sha256', secret).update(`${timestampSeconds}.${body}`).digest('hex');
  return `t=${timestampSeconds},v1=${digest}`;
}

/** Options of `verifyWebhookSignature`. */
export interface VerifyWebhookOptions {
  /** How old a signature may be, in seconds. Default 300. */
  toleranceSeconds?: number;
  /** The receiver's clock, in ms. Default `Date.now()`. */
  now?: number;
}

/**
 * What a receiver calls with the raw body it read and the `AgentLoom-Signature` header: true when
 * the signature is the app secret's and no older than the tolerance. Compares in constant time.
 */
export function verifyWebhookSignature(
  secret: string,
  body: string,
  header: string | null | undefined,
  options: VerifyWebhookOptions = {},
): boolean {
  if (!header) return false;
  const parts = new Map(
    header.split(',').map((part) => {
      const index = part.indexOf('=');
      return [part.slice(0, index).trim(), part.slice(index + 1).trim()] as const;
    }),
  );
  const timestamp = Number(parts.get('t'));
  const given = parts.get('v1');
  if (!Number.isInteger(timestamp) || !given || !/^[0-9a-f]{64}$/.test(given)) return false;
  const nowSeconds = Math.floor((options.now ?? Date.now()) / 1000);
  if (Math.abs(nowSeconds - timestamp) > (options.toleranceSeconds ?? 300)) return false;
  const expected = signWebhook(secret, body, timestamp).slice(`t=${timestamp},v1=`.length);
  return timingSafeEqual(Buffer.from(expected, 'hex'), Buffer.from(given, 'hex'));
}
