import { type Kysely, sql } from 'kysely';
import { backoffAfter, mostAccountFailuresPerWindow, type SignInLimits } from '../../config/index.js';
import { keyedDigest } from '../crypto/index.js';
import type { PlatformDatabase } from '../database/schema.js';

/** An account's failures are forgotten after a day without a new one. */
const accountMemoryMs = 24 * 60 * 60_000;
/** A success keeps its account "known" at that address for 30 days; older rows are pruned. */
const knownForMs = 30 * 24 * 60 * 60_000;

/** Whether a sign-in attempt may check its password now, and if not, which limit holds it and for how long. */
export type SignInVerdict = { allowed: true } | { allowed: false; limit: 'account' | 'address'; retryAfterMs: number };

/** Thrown for limits under which one account's failures could block its address. */
export class SignInLimitsProblemError extends Error {
  readonly code = 'invalid-configuration';
  constructor(readonly mostPerAccount: number) {
    super(
      `The per-address sign-in limit must be higher than ${mostPerAccount}, the most failures one account's back-off lets through in the address window.`,
    );
    this.name = 'SignInLimitsProblemError';
  }
}

interface LimitKeys {
  account: string;
  address?: string;
  known?: string;
}

/**
 * Sign-in limits that cannot be turned against other users (P-15.3), kept in the platform
 * database so that every API node shares them (one row per key, counted with an atomic upsert).
 *
 * - Per account: after `accountFailures` failed passwords, each further failure doubles a
 *   back-off (from `backoffMs` up to `maximumBackoffMs`) during which that account's attempts
 *   are refused without checking the password. A success clears it. The back-off delays the
 *   owner too, but never longer than the last back-off: it is a delay, not a lock.
 * - Per client address: far more failures (`addressFailures` in `addressWindowMs`) against any
 *   accounts (password spraying). A success never clears it. Refused attempts are not counted,
 *   so one account's back-off bounds what guessing one account adds to its address, and the
 *   limit must be above that bound (`mostAccountFailuresPerWindow`, checked here). An address
 *   over its limit still lets through the accounts that signed in from it in the last 30 days:
 *   an attacker behind a shared address (a load balancer, an office) never locks those out.
 *
 * Emails are kept as keyed digests (the table never holds attacker-chosen text); addresses as
 * they are, so an operator can see which address is held.
 */
export class SignInLimiter {
  constructor(
    private readonly database: Kysely<PlatformDatabase>,
    private readonly limits: SignInLimits,
    private readonly secretKey: string,
  ) {
    const mostPerAccount = mostAccountFailuresPerWindow(limits);
    if (limits.addressFailures <= mostPerAccount) throw new SignInLimitsProblemError(mostPerAccount);
  }

  /** Whether an attempt for `email` from `address` may check its password at `now`. */
  async check(email: string, address: string | undefined, now: Date): Promise<SignInVerdict> {
    const keys = this.keysOf(email, address);
    const wanted = [keys.account, keys.address, keys.known].filter((key): key is string => key !== undefined);
    const rows = await this.database.selectFrom('sign_in_limits').selectAll().where('key', 'in', wanted).execute();
    const byKey = new Map(rows.map((row) => [row.key, row]));
    const time = now.getTime();
    const account = byKey.get(keys.account);
    if (account?.last_failure_at) {
      const last = Date.parse(account.last_failure_at);
      const until = last + backoffAfter(this.limits, account.failures);
      if (time - last < accountMemoryMs && until > time) return { allowed: false, limit: 'account', retryAfterMs: until - time };
    }
    const addressRow = keys.address === undefined ? undefined : byKey.get(keys.address);
    if (addressRow && addressRow.failures >= this.limits.addressFailures) {
      const windowEnds = Date.parse(addressRow.window_started_at) + this.limits.addressWindowMs;
      const known = keys.known === undefined ? undefined : byKey.get(keys.known);
      const isKnown = known !== undefined && Date.parse(known.updated_at) > time - knownForMs;
      if (windowEnds > time && !isKnown) return { allowed: false, limit: 'address', retryAfterMs: windowEnds - time };
    }
    return { allowed: true };
  }

  /** Counts a wrong password (or an unknown or disabled account) against the account and the address. */
  async recordFailure(email: string, address: string | undefined, now: Date): Promise<void> {
    const keys = this.keysOf(email, address);
    const at = now.toISOString();
    await this.count(keys.account, at, new Date(now.getTime() - accountMemoryMs).toISOString(), 'last_failure_at');
    if (keys.address !== undefined) {
      const windowStart = new Date(now.getTime() - this.limits.addressWindowMs).toISOString();
      await this.count(keys.address, at, windowStart, 'window_started_at');
    }
  }

  /**
   * Clears the account's failures and remembers the account at this address. The address's
   * count stays as it is: a success must not let an attacker reset it with an account of their own.
   */
  async recordSuccess(email: string, address: string | undefined, now: Date): Promise<void> {
    const keys = this.keysOf(email, address);
    const at = now.toISOString();
    await this.database.deleteFrom('sign_in_limits').where('key', '=', keys.account).execute();
    if (keys.known !== undefined) {
      await this.database
        .insertInto('sign_in_limits')
        .values({ key: keys.known, failures: 0, window_started_at: at, last_failure_at: null, updated_at: at })
        .onConflict((conflict) => conflict.column('key').doUpdateSet({ updated_at: at }))
        .execute();
    }
    const stale = new Date(now.getTime() - knownForMs).toISOString();
    await this.database.deleteFrom('sign_in_limits').where('updated_at', '<', stale).execute();
  }

  /** Adds one failure to `key`, starting over when `staleColumn` is older than `cutoff`; atomic on both engines. */
  private async count(
    key: string,
    at: string,
    cutoff: string,
    staleColumn: 'last_failure_at' | 'window_started_at',
  ): Promise<void> {
    const stale = sql<boolean>`${sql.ref(`sign_in_limits.${staleColumn}`)} < ${cutoff}`;
    await this.database
      .insertInto('sign_in_limits')
      .values({ key, failures: 1, window_started_at: at, last_failure_at: at, updated_at: at })
      .onConflict((conflict) =>
        conflict.column('key').doUpdateSet({
          failures: sql<number>`case when ${stale} then 1 else ${sql.ref('sign_in_limits.failures')} + 1 end`,
          window_started_at: sql<string>`case when ${stale} then ${at} else ${sql.ref('sign_in_limits.window_started_at')} end`,
          last_failure_at: at,
          updated_at: at,
        }),
      )
      .execute();
  }

  private keysOf(email: string, address: string | undefined): LimitKeys {
    const account = email.trim().toLowerCase();
    return {
      account: `account:${keyedDigest(this.secretKey, `sign-in:${account}`)}`,
      ...(address === undefined
        ? {}
        : { address: `address:${address}`, known: `known:${keyedDigest(this.secretKey, `sign-in:${account}\n${address}`)}` }),
    };
  }
}
