import type { FactStore, RunClient, RunStore } from '@agentloom/sdk';
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { SecretBox } from '../adapters/crypto/index.js';
import type { DatabaseDialect } from '../adapters/database/index.js';
import type { PlatformDatabase } from '../adapters/database/schema.js';
import type { Dispatcher } from '../adapters/dispatch/dispatcher.js';
import type { Outbound } from '../adapters/outbound/index.js';
import type { PlatformConfig } from '../config/index.js';

/**
 * What the platform's use cases work with, built once per process (`createPlatform`): the
 * database, the SDK's run store and client, the dispatcher, the outbound module, the secret box,
 * the configuration, the logger and the clock. It carries nothing of HTTP: the HTTP app adds its
 * own members (metrics, sign-in limits) on top, and the worker, the sweeper and the jobs take only
 * the members they use (`Pick<PlatformContext, …>`).
 */
export interface PlatformContext {
  readonly database: Kysely<PlatformDatabase>;
  readonly dialect: DatabaseDialect;
  readonly config: PlatformConfig;
  readonly secretBox: SecretBox;
  readonly logger: Logger;
  /** The SDK store that holds the truth of every run (P-11.9). */
  readonly runStore: RunStore;
  /** Where agents with memory keep their facts (N-15), opened on first use. */
  readonly factStore?: FactStore;
  /** Reads, follows, stops and answers runs through the SDK store (never a platform copy). */
  readonly runClient: RunClient;
  /** Hands runs to workers. */
  readonly dispatcher: Dispatcher;
  /** The outbound module (P-15.1): the egress policy and the one `fetch` every server-side request goes through. */
  readonly outbound: Outbound;
  /** Reads the clock; tests may replace it. */
  readonly now: () => Date;
}
