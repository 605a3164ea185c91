import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** A new random token of 32 bytes, base64url. */
export function randomToken(): string {
  return randomBytes(32).toString('base64url');
}

/** SHA-256 of a token: what the database keeps for sessions and API keys, never the token. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** An HMAC of `value` under `key`, base64url (the CSRF token of a web session). */
export function keyedDigest(key: string, value: string): string {
  return createHmac('sha256', key).update(value, 'utf8').digest('base64url');
}

/** Compares two strings in constant time. */
export function sameSecret(left: string, right: string): boolean {
  const a = Buffer.from(left);
  const b = Buffer.from(right);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** A new id: a short prefix naming the kind, then 128 random bits (e.g. `app_…`). */
export function newId(prefix: string): string {
  return `${prefix}_${randomBytes(16).toString('base64url')}`;
}
