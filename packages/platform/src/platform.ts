import { RunClient } from '@agentloom/sdk';
import type { OpenAPIHono } from '@hono/zod-openapi';
import { type DestinationStream, type Logger, pino } from 'pino';
import { SecretBox } from './adapters/crypto/index.js';
import { migrateToLatest, openPlatformDatabase } from './adapters/database/index.js';
import { openFactStore } from './adapters/database/open-fact-store.js';
import { openRunStore } from './adapters/database/open-run-store.js';
import { type Dispatcher, jobChannelOf, LeaseTableDispatcher, PgBossDispatcher } from './adapters/dispatch/index.js';
import { SignInLimiter } from './adapters/identity/index.js';
import { createOutbound, defaultOutboundSettings, type ResolveHost } from './adapters/outbound/index.js';
import { stopDeletionJobs } from './application/deletion/index.js';
import { defaultSignInLimits, demoModeOf, dispatcherKind, type PlatformConfig, pgBossSchemaOf } from './config/index.js';
import { createPlatformApp } from './http/create-app.js';
import { createPlatformMetrics } from './http/metrics.js';
import type { PlatformEnvironment, PlatformServices } from './http/services.js';
import { RunWorker, type RunWorkerOptions, startA2aPushDeliverer, startSweeper, startWebhookDeliverer } from './worker/index.js';

/** How long a waiting follower goes without a wake-up before it reads its run anyway (a safety net, issue 34). */
export const followerSafetyNetMs = 60_000;

/** A running platform core: the HTTP app and the services behind it. */
export interface Platform {
  readonly app: OpenAPIHono<PlatformEnvironment>;
  readonly services: PlatformServices;
  /** Starts a worker in this process (the embedded default; `agentloom worker` starts only these). */
  startWorker(options?: RunWorkerOptions): RunWorker;
  /** Stops the workers and the sweeper, then closes the run store and the database. */
  close(): Promise<void>;
}

/** Options of `createPlatform`. */
export interface CreatePlatformOptions {
  config: PlatformConfig;
  /** Where log lines go (default stdout); tests read them to prove no secret is logged. */
  logDestination?: DestinationStream;
  /** Replaces the clock. */
  now?: () => Date;
  /**
   * How outbound requests resolve host names (default: the system resolver). Tests name hosts of
   * their own, so that a name resolving to a refused address needs no DNS server.
   */
  resolveHost?: ResolveHost;
}

/**
 * Creates the platform logger: JSON lines with request ids; credentials-bearing fields are
 * redacted by path as a second line of defence (the code never logs them in the first place).
 */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  return pino(
    {
      level,
      base: { service: 'agentloom-platform' },
      redact: {
        paths: [
          '*.apiKey',
          '*.password',
          '*.secret',
          '*.authorization',
          '*.cookie',
          'req.headers.authorization',
          'req.headers.cookie',
        ],
        censor: '[redacted]',
      },
    },
    destination,
  );
}

/**
 * Opens the database, brings its schema up to date and builds the HTTP app. Nothing listens
 * yet: `serve` (CLI) attaches the app to a port, tests call `app.request()`.
 */
export async function createPlatform(options: CreatePlatformOptions): Promise<Platform> {
  const { config } = options;
  const handle = openPlatformDatabase(config.database);
  try {
    await migrateToLatest(
      handle.database,
      handle.dialect,
      config.database.dialect === 'postgres' ? config.database.schema : undefined,
    );
  } catch (error) {
    await handle.close();
    throw error;
  }
  let runStore: Awaited<ReturnType<typeof openRunStore>>;
  try {
    runStore = await openRunStore(config.database, config.dataDirectory);
  } catch (error) {
    await handle.close();
    throw error;
  }
  const now = options.now ?? (() => new Date());
  const logger = createLogger(config.logLevel, options.logDestination);
  let dispatcher: Dispatcher;
  try {
    dispatcher = await openDispatcher(config, handle, logger, now);
  } catch (error) {
    await runStore.close();
    await handle.close();
    throw error;
  }
  const services: PlatformServices = {
    database: handle.database,
    dialect: handle.dialect,
    config,
    secretBox: new SecretBox(config.secretKey),
    logger,
    metrics: createPlatformMetrics(),
    signInLimiter: new SignInLimiter(handle.database, config.signInLimits ?? defaultSignInLimits, config.secretKey),
    runStore,
    factStore: openFactStore(config.database, config.dataDirectory),
    // Followers (SSE, blocking waits, A2A streams) are woken by the store after each write
    // (ADR 0025): in-process on SQLite, LISTEN/NOTIFY on PostgreSQL. Their own read without a
    // wake-up is only a safety net, once a minute, so that idle followers cost no queries (issue 34).
    runClient: new RunClient({ store: runStore, pollMs: 20, maxPollMs: 250, safetyNetMs: followerSafetyNetMs }),
    dispatcher,
    outbound: createOutbound(config.outbound ?? defaultOutboundSettings, {
      listen: { host: config.host, port: config.port },
      ...(options.resolveHost ? { resolveHost: options.resolveHost } : {}),
    }),
    now,
  };
  // The embedded default with its Demo space: the demo HTTP tool may call this platform's demo endpoint (and nothing else of it).
  if (demoModeOf(config)) services.outbound.policy.enableDemoEndpoint();
  const workers: RunWorker[] = [];
  let stopSweeper: (() => void) | undefined;
  let stopDeliverer: (() => void) | undefined;
  let stopPushDeliverer: (() => void) | undefined;
  return {
    app: createPlatformApp(services),
    services,
    startWorker(workerOptions) {
      const worker = new RunWorker(services, workerOptions);
      workers.push(worker);
      worker.start();
      stopSweeper ??= startSweeper(services);
      stopDeliverer ??= startWebhookDeliverer(services, worker.id);
      stopPushDeliverer ??= startA2aPushDeliverer(services, worker.id);
      return worker;
    },
    async close() {
      stopSweeper?.();
      stopDeliverer?.();
      stopPushDeliverer?.();
      await stopDeletionJobs(services);
      await Promise.all(workers.map((worker) => worker.stop(2_000)));
      await dispatcher.close();
      await services.outbound.close();
      await runStore.close();
      await services.factStore?.close();
      await handle.close();
    },
  };
}

/**
 * The configured dispatcher, started (D-P13): pg-boss in its own schema on PostgreSQL by default,
 * the `run_jobs` lease table on SQLite or with `AGENTLOOM_DISPATCHER=lease-table`.
 */
async function openDispatcher(
  config: PlatformConfig,
  handle: ReturnType<typeof openPlatformDatabase>,
  logger: Logger,
  now: () => Date,
): Promise<Dispatcher> {
  if (dispatcherKind(config) === 'lease-table' || config.database.dialect !== 'postgres') {
    const channel =
      config.database.dialect === 'postgres'
        ? {
            connectionString: config.database.url,
            channel: jobChannelOf(config.database.schema ?? 'public'),
            onError: (error: Error) => logger.warn({ err: { message: error.message } }, 'job wake-up listener lost'),
          }
        : undefined;
    return new LeaseTableDispatcher(handle.database, handle.dialect, now, channel);
  }
  const dispatcher = new PgBossDispatcher({
    database: handle.database,
    connectionString: config.database.url,
    schema: pgBossSchemaOf(config),
    leaseMs: config.runLeaseMs,
    onError: (error) => logger.warn({ err: { message: error.message } }, 'pg-boss error'),
  });
  try {
    await dispatcher.start();
  } catch (error) {
    await dispatcher.close().catch(() => {});
    throw error;
  }
  return dispatcher;
}
