import type { RunClient, RunStore } from '@agentloom/sdk';
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Outbound } from '../adapters/outbound/index.js';
import type { PlatformConfig } from '../config/index.js';
import type { SecretBox } from '../crypto/index.js';
import type { DatabaseDialect } from '../database/index.js';
import type { PlatformDatabase } from '../database/schema.js';
import type { SignInLimiter } from '../identity/index.js';
import type { Dispatcher } from '../runs/dispatcher.js';
import type { PlatformMetrics } from './metrics.js';
import type { Principal } from './principal.js';

/** Everything a route needs, built once per server and shared by every request. */
export interface PlatformServices {
  readonly database: Kysely<PlatformDatabase>;
  readonly dialect: DatabaseDialect;
  readonly config: PlatformConfig;
  readonly secretBox: SecretBox;
  readonly logger: Logger;
  readonly metrics: PlatformMetrics;
  /** Sign-in limits per account and per client address, shared through the database (P-15.3). */
  readonly signInLimiter: SignInLimiter;
  /** The SDK store that holds the truth of every run (P-11.9). */
  readonly runStore: RunStore;
  /** Reads, follows, stops and answers runs through the SDK store (never a platform copy). */
  readonly runClient: RunClient;
  /** Hands runs to workers. */
  readonly dispatcher: Dispatcher;
  /** The outbound module (P-15.1): the egress policy and the one `fetch` every server-side request goes through. */
  readonly outbound: Outbound;
  /** Reads the clock; tests may replace it. */
  readonly now: () => Date;
}

/** Hono context variables of the platform app. */
export interface PlatformVariables {
  services: PlatformServices;
  principal: Principal | undefined;
  requestId: string;
}

/** The Hono environment type of every platform sub-app. */
export interface PlatformEnvironment {
  Variables: PlatformVariables;
}
