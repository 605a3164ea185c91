import type { PlatformContext } from '../application/context.js';

/**
 * What a run worker uses of the platform: the database (its run index, releases, its registry),
 * the SDK store and client, the dispatcher, the outbound module and secret box its agents are
 * built with, the configuration, the logger and the clock. Nothing of HTTP.
 */
export type WorkerContext = Pick<
  PlatformContext,
  | 'database'
  | 'dialect'
  | 'config'
  | 'logger'
  | 'runStore'
  | 'factStore'
  | 'runClient'
  | 'dispatcher'
  | 'outbound'
  | 'secretBox'
  | 'now'
>;
