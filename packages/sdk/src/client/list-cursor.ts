import { InvalidRunRequestError } from '../core/errors/index.js';

/**
 * Opaque page cursors for `listRuns` and `listSessions`: the position of the last item of a page
 * (keyset pagination), so that a page costs the same on the 1st and the 1,000th page and a run
 * created meanwhile never shifts one.
 */

/** Encodes a position as a URL-safe string. */
export function encodeCursor(position: Record<string, string | number>): string {
  return Buffer.from(JSON.stringify(position), 'utf8').toString('base64url');
}

/** Decodes a cursor made by `encodeCursor`; anything else is an `InvalidRunRequestError`. */
export function decodeCursor<Position extends Record<string, string | number>>(
  cursor: string,
  shape: { [Key in keyof Position]: 'string' | 'number' },
): Position {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    value = undefined;
  }
  const valid =
    typeof value === 'object' &&
    value !== null &&
    Object.entries(shape).every(([key, type]) => typeof (value as Record<string, unknown>)[key] === type);
  if (!valid) throw new InvalidRunRequestError('(list)', 'The cursor is not one this listing returned.');
  return value as Position;
}

/** Checks a page size: an integer from 1 to 1,000 (default 50). */
export function pageSize(limit: number | undefined): number {
  const size = limit ?? 50;
  if (!Number.isInteger(size) || size < 1 || size > 1000) {
    throw new InvalidRunRequestError('(list)', `limit must be an integer from 1 to 1000, not ${String(limit)}.`);
  }
  return size;
}
