import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import proxyAddress from 'proxy-addr';
import { randomToken } from '../adapters/crypto/index.js';
import type { DatabaseLocation } from '../adapters/database/index.js';
import { type OutboundSettings, parseOutboundAllow } from '../adapters/outbound/index.js';
import { defaultSignInLimits, mostAccountFailuresPerWindow, type SignInLimits } from './sign-in-limits.js';

/** The platform's configuration after validation. */
export interface PlatformConfig {
  dataDirectory: string;
  database: DatabaseLocation;
  /** The key that encrypts credentials at rest; never logged. */
  secretKey: string;
  /** Where the secret key came from: given, or generated into the data directory on first start. */
  secretKeySource: 'environment' | 'data-directory' | 'generated';
  port: number;
  host: string;
  logLevel: string;
  /** Largest accepted request body in bytes (JSON and uploads alike). */
  bodyLimitBytes: number;
  /** Seeds the offline demo connection and a published demo agent into an empty instance. */
  seedDemo: boolean;
  /** The SDK lease of a run and the dispatcher lease of its job, in ms (takeover waits this long). */
  runLeaseMs: number;
  /** Runs one worker executes at once (machine capacity, not a model quota: NOT-17). */
  workerConcurrency: number;
  /** First wait before a failed completion webhook is tried again, in ms; it doubles each time. */
  webhookRetryMs: number;
  /** Attempts of a completion webhook before it is marked failed. */
  webhookAttempts: number;
  /**
   * Claims of a run whose MCP server cannot be reached before the run ends `failed` with code
   * `mcp-unreachable` (each claim waits the worker's back-off: 0.5 s, 1 s, 2 s …); default 5.
   */
  mcpConnectAttempts?: number;
  /**
   * Host directories shown read-only to stdio MCP servers a worker with isolation starts inside the
   * run's sandbox (`AGENTLOOM_MCP_SANDBOX_PATHS`, absolute paths separated by `:`): where the
   * servers' programs and their packages are installed when that is not under `/usr`. Default none.
   */
  mcpSandboxPaths?: readonly string[];
  /**
   * Give stdio MCP servers started in the run's sandbox the host network (`AGENTLOOM_MCP_SANDBOX_NETWORK=host`;
   * default `none`: no network at all). Their files stay confined to the run's view either way; with
   * `host` they reach what the host reaches, outside the outbound module's policy, as a host process would.
   */
  mcpSandboxNetwork?: 'none' | 'host';
  /**
   * Limits of an agent's managed files (`wiki/`, `files/`; P-12.2): the largest file one upload may
   * be (`AGENTLOOM_FILE_MAX_BYTES`, default 8 MiB; uploads are also bound by the body limit) and the
   * most files and folders one area may hold (`AGENTLOOM_FILE_MAX_ENTRIES`, default 1000).
   */
  agentFiles?: AgentFileLimits;
  /** Workers `serve` starts inside its own process (0: API only, `agentloom worker` runs them). */
  embeddedWorkers: number;
  /** The built web console to serve at `/` (default: `packages/web/dist` of this checkout). */
  consoleDirectory?: string;
  /**
   * How runs reach workers (D-P13): `pg-boss` (PostgreSQL only; its default) or `lease-table`
   * (the `run_jobs` table; the SQLite default). Unset: the engine's default (`dispatcherKind`).
   */
  dispatcher?: DispatcherKind;
  /** pg-boss's schema (default `pgboss`, or `<platform schema>_pgboss` when the URL names a schema). */
  pgBossSchema?: string;
  /**
   * Proxies whose `X-Forwarded-For` / `X-Forwarded-Proto` are believed (P-15.3): addresses, CIDR
   * ranges or `loopback` / `linklocal` / `uniquelocal`. Unset or empty: none.
   */
  trustedProxies?: readonly string[];
  /** `Secure` on the session cookie: always, never, or (`auto`, the default) when the request is HTTPS. */
  cookieSecure?: boolean | 'auto';
  /** The bearer token `/metrics` asks for; unset: `/metrics` is off (404). */
  metricsToken?: string;
  /** Sign-in limits (P-15.3); unset: `defaultSignInLimits`. */
  signInLimits?: SignInLimits;
  /**
   * Where server-side requests may go beyond the internet (P-15.1): `AGENTLOOM_OUTBOUND_ALLOW`
   * and `AGENTLOOM_OUTBOUND_ALLOW_PRIVATE`. Unset: the default deny of every internal address.
   */
  outbound?: OutboundSettings;
}

/** Limits of an agent's managed files (see `PlatformConfig.agentFiles`). */
export interface AgentFileLimits {
  maxFileBytes: number;
  maxEntries: number;
}

/** The default limits of an agent's managed files. */
export const defaultAgentFileLimits: AgentFileLimits = { maxFileBytes: 8 * 1024 * 1024, maxEntries: 1000 };

/** The dispatcher adapters (`AGENTLOOM_DISPATCHER`). */
export type DispatcherKind = 'pg-boss' | 'lease-table';

/** The dispatcher a configuration uses: the one it names, else pg-boss on PostgreSQL and the lease table on SQLite. */
export function dispatcherKind(config: Pick<PlatformConfig, 'database' | 'dispatcher'>): DispatcherKind {
  return config.dispatcher ?? (config.database.dialect === 'postgres' ? 'pg-boss' : 'lease-table');
}

/**
 * Whether the platform runs the demo (issue 35): the embedded default (SQLite) with the Demo
 * space seeded (`AGENTLOOM_SEED_DEMO` not `false`). Then its demo endpoint answers and the demo
 * HTTP tool may reach it through the egress policy.
 */
export function demoModeOf(config: Pick<PlatformConfig, 'database' | 'seedDemo'>): boolean {
  return config.seedDemo && config.database.dialect === 'sqlite';
}

/** pg-boss's schema for a configuration (see `PlatformConfig.pgBossSchema`). */
export function pgBossSchemaOf(config: Pick<PlatformConfig, 'database' | 'pgBossSchema'>): string {
  if (config.pgBossSchema) return config.pgBossSchema;
  return config.database.dialect === 'postgres' && config.database.schema ? `${config.database.schema}_pgboss` : 'pgboss';
}

/** Command-line flags that override the environment. */
export interface ConfigFlags {
  port?: string;
  host?: string;
  dataDir?: string;
  databaseUrl?: string;
}

/** Thrown when the configuration is invalid; `problems` has one clear sentence per problem. */
export class ConfigurationProblemError extends Error {
  readonly code = 'invalid-configuration';
  constructor(readonly problems: readonly string[]) {
    super(`The platform configuration is invalid:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
    this.name = 'ConfigurationProblemError';
  }
}

/** The default body limit: 10 MiB, enough for a skill package. */
export const defaultBodyLimitBytes = 10 * 1024 * 1024;

/** Claims of a run whose MCP server cannot be reached before it ends `mcp-unreachable`. */
export const defaultMcpConnectAttempts = 5;

/**
 * Reads and validates the configuration from environment variables and flags. Every problem is
 * reported at once. Without `AGENTLOOM_SECRET_KEY` the embedded default (SQLite) reads or
 * generates `secret.key` in the data directory (mode 0600); PostgreSQL deployments run on many
 * machines that must share one key, so there it is required.
 */
export function loadConfig(
  rawEnvironment: NodeJS.ProcessEnv,
  flags: ConfigFlags = {},
  workingDirectory = process.cwd(),
): PlatformConfig {
  // An empty variable counts as unset (`AGENTLOOM_SECRET_KEY=` in a unit file is a common slip).
  const environment: NodeJS.ProcessEnv = Object.fromEntries(
    Object.entries(rawEnvironment).filter(([, value]) => value !== undefined && value !== ''),
  );
  const problems: string[] = [];
  const dataDirectory = path.resolve(workingDirectory, flags.dataDir ?? environment.AGENTLOOM_DATA_DIR ?? '.agentloom');

  const portText = flags.port ?? environment.AGENTLOOM_PORT ?? environment.PORT ?? '3000';
  const port = Number(portText);
  if (!/^\d+$/.test(portText) || port < 0 || port > 65535) {
    problems.push(`The port "${portText}" (--port, AGENTLOOM_PORT or PORT) must be an integer from 0 to 65535.`);
  }

  const databaseUrl = flags.databaseUrl ?? environment.AGENTLOOM_DATABASE_URL;
  let database: DatabaseLocation = { dialect: 'sqlite', file: path.join(dataDirectory, 'platform.sqlite') };
  if (databaseUrl) {
    if (/^postgres(ql)?:\/\//.test(databaseUrl)) {
      try {
        const url = new URL(databaseUrl);
        const schema = url.searchParams.get('schema') ?? undefined;
        url.searchParams.delete('schema');
        database = { dialect: 'postgres', url: url.toString(), ...(schema ? { schema } : {}) };
      } catch {
        problems.push('AGENTLOOM_DATABASE_URL is not a valid PostgreSQL URL.');
      }
    } else if (databaseUrl.startsWith('sqlite:')) {
      const file = databaseUrl.slice('sqlite:'.length).replace(/^\/\//, '');
      if (!file) problems.push('AGENTLOOM_DATABASE_URL "sqlite:" needs a file path, e.g. sqlite:./data/platform.sqlite.');
      database = { dialect: 'sqlite', file: path.resolve(workingDirectory, file) };
    } else {
      problems.push('AGENTLOOM_DATABASE_URL must start with postgres://, postgresql:// or sqlite:.');
    }
  }

  const bodyLimitText = environment.AGENTLOOM_BODY_LIMIT_BYTES;
  const bodyLimitBytes = bodyLimitText === undefined ? defaultBodyLimitBytes : Number(bodyLimitText);
  if (!Number.isInteger(bodyLimitBytes) || bodyLimitBytes < 1024) {
    problems.push(`AGENTLOOM_BODY_LIMIT_BYTES "${bodyLimitText}" must be an integer of at least 1024.`);
  }

  let secretKey = environment.AGENTLOOM_SECRET_KEY ?? '';
  let secretKeySource: PlatformConfig['secretKeySource'] = 'environment';
  if (environment.AGENTLOOM_SECRET_KEY !== undefined && secretKey.length < 32) {
    problems.push('AGENTLOOM_SECRET_KEY must be at least 32 characters (e.g. `openssl rand -base64 32`).');
  }
  if (environment.AGENTLOOM_SECRET_KEY === undefined && database.dialect === 'postgres') {
    problems.push(
      'AGENTLOOM_SECRET_KEY is required with PostgreSQL: every machine must share the key that encrypts credentials.',
    );
  }
  const integerSetting = (name: string, fallback: number, minimum: number): number => {
    const text = environment[name];
    if (text === undefined) return fallback;
    const value = Number(text);
    if (!/^\d+$/.test(text) || value < minimum) problems.push(`${name} "${text}" must be an integer of at least ${minimum}.`);
    return value;
  };
  const runLeaseMs = integerSetting('AGENTLOOM_RUN_LEASE_MS', 30_000, 500);
  const workerConcurrency = integerSetting('AGENTLOOM_WORKER_CONCURRENCY', 50, 1);
  const embeddedWorkers = integerSetting('AGENTLOOM_EMBEDDED_WORKERS', 1, 0);
  const dispatcherText = environment.AGENTLOOM_DISPATCHER;
  if (dispatcherText !== undefined && dispatcherText !== 'pg-boss' && dispatcherText !== 'lease-table') {
    problems.push(`AGENTLOOM_DISPATCHER "${dispatcherText}" must be pg-boss or lease-table.`);
  } else if (dispatcherText === 'pg-boss' && database.dialect !== 'postgres') {
    problems.push('AGENTLOOM_DISPATCHER=pg-boss needs PostgreSQL (AGENTLOOM_DATABASE_URL=postgres://…).');
  }
  const pgBossSchema = environment.AGENTLOOM_PGBOSS_SCHEMA;
  if (pgBossSchema !== undefined && !/^[A-Za-z_]\w{0,49}$/.test(pgBossSchema)) {
    problems.push(`AGENTLOOM_PGBOSS_SCHEMA "${pgBossSchema}" must be letters, digits and underscores (at most 50).`);
  }
  const webhookRetryMs = integerSetting('AGENTLOOM_WEBHOOK_RETRY_MS', 5_000, 10);
  const webhookAttempts = integerSetting('AGENTLOOM_WEBHOOK_ATTEMPTS', 10, 1);
  const mcpConnectAttempts = integerSetting('AGENTLOOM_MCP_CONNECT_ATTEMPTS', defaultMcpConnectAttempts, 1);
  const mcpSandboxPaths = (environment.AGENTLOOM_MCP_SANDBOX_PATHS ?? '').split(':').filter((entry) => entry !== '');
  for (const entry of mcpSandboxPaths)
    if (!path.isAbsolute(entry)) problems.push(`AGENTLOOM_MCP_SANDBOX_PATHS entry "${entry}" must be an absolute path.`);
  const mcpSandboxNetwork = environment.AGENTLOOM_MCP_SANDBOX_NETWORK ?? 'none';
  if (mcpSandboxNetwork !== 'none' && mcpSandboxNetwork !== 'host')
    problems.push(`AGENTLOOM_MCP_SANDBOX_NETWORK "${mcpSandboxNetwork}" must be none or host.`);
  const agentFiles: AgentFileLimits = {
    maxFileBytes: integerSetting('AGENTLOOM_FILE_MAX_BYTES', defaultAgentFileLimits.maxFileBytes, 1),
    maxEntries: integerSetting('AGENTLOOM_FILE_MAX_ENTRIES', defaultAgentFileLimits.maxEntries, 1),
  };
  const signInLimits: SignInLimits = {
    accountFailures: integerSetting('AGENTLOOM_SIGNIN_ACCOUNT_FAILURES', defaultSignInLimits.accountFailures, 1),
    backoffMs: integerSetting('AGENTLOOM_SIGNIN_BACKOFF_MS', defaultSignInLimits.backoffMs, 1),
    maximumBackoffMs: integerSetting('AGENTLOOM_SIGNIN_MAX_BACKOFF_MS', defaultSignInLimits.maximumBackoffMs, 1),
    addressFailures: integerSetting('AGENTLOOM_SIGNIN_ADDRESS_FAILURES', defaultSignInLimits.addressFailures, 1),
    addressWindowMs: integerSetting('AGENTLOOM_SIGNIN_ADDRESS_WINDOW_MS', defaultSignInLimits.addressWindowMs, 1000),
  };
  const mostPerAccount = Object.values(signInLimits).every(Number.isFinite) ? mostAccountFailuresPerWindow(signInLimits) : 0;
  if (signInLimits.addressFailures <= mostPerAccount) {
    problems.push(
      `AGENTLOOM_SIGNIN_ADDRESS_FAILURES (${signInLimits.addressFailures}) must be higher than ${mostPerAccount}: with these settings one account's back-off lets that many failures through in AGENTLOOM_SIGNIN_ADDRESS_WINDOW_MS, and guessing at one account must never block its address for everyone else.`,
    );
  }
  const trustedProxies = (environment.AGENTLOOM_TRUSTED_PROXIES ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  for (const entry of trustedProxies) {
    try {
      proxyAddress.compile(entry);
    } catch (error) {
      problems.push(
        `AGENTLOOM_TRUSTED_PROXIES entry "${entry}" is not an IP address, a CIDR range, loopback, linklocal or uniquelocal (${(error as Error).message}).`,
      );
    }
  }
  const cookieSecureText = environment.AGENTLOOM_COOKIE_SECURE ?? 'auto';
  if (!['true', 'false', 'auto'].includes(cookieSecureText)) {
    problems.push(`AGENTLOOM_COOKIE_SECURE "${cookieSecureText}" must be true, false or auto.`);
  }
  const metricsToken = environment.AGENTLOOM_METRICS_TOKEN;
  if (metricsToken !== undefined && (metricsToken.length < 16 || /\s/.test(metricsToken))) {
    problems.push('AGENTLOOM_METRICS_TOKEN must be at least 16 characters without spaces (e.g. `openssl rand -hex 24`).');
  }
  const outboundAllow = parseOutboundAllow(environment.AGENTLOOM_OUTBOUND_ALLOW);
  problems.push(...outboundAllow.problems);
  const allowPrivateText = environment.AGENTLOOM_OUTBOUND_ALLOW_PRIVATE;
  if (allowPrivateText !== undefined && allowPrivateText !== 'true' && allowPrivateText !== 'false') {
    problems.push(`AGENTLOOM_OUTBOUND_ALLOW_PRIVATE "${allowPrivateText}" must be true or false.`);
  }
  if (problems.length > 0) throw new ConfigurationProblemError(problems);

  if (environment.AGENTLOOM_SECRET_KEY === undefined) {
    const keyFile = path.join(dataDirectory, 'secret.key');
    if (existsSync(keyFile)) {
      secretKey = readFileSync(keyFile, 'utf8').trim();
      secretKeySource = 'data-directory';
    } else {
      mkdirSync(dataDirectory, { recursive: true, mode: 0o700 });
      secretKey = randomToken();
      writeFileSync(keyFile, `${secretKey}\n`, { mode: 0o600, flag: 'wx' });
      secretKeySource = 'generated';
    }
  }

  return {
    dataDirectory,
    database,
    secretKey,
    secretKeySource,
    port,
    host: flags.host ?? environment.AGENTLOOM_HOST ?? '127.0.0.1',
    logLevel: environment.AGENTLOOM_LOG_LEVEL ?? 'info',
    bodyLimitBytes,
    seedDemo: environment.AGENTLOOM_SEED_DEMO !== 'false',
    runLeaseMs,
    workerConcurrency,
    embeddedWorkers,
    ...(dispatcherText === 'pg-boss' || dispatcherText === 'lease-table' ? { dispatcher: dispatcherText } : {}),
    ...(pgBossSchema ? { pgBossSchema } : {}),
    webhookRetryMs,
    webhookAttempts,
    mcpConnectAttempts,
    ...(mcpSandboxPaths.length > 0 ? { mcpSandboxPaths } : {}),
    ...(mcpSandboxNetwork === 'host' ? { mcpSandboxNetwork: 'host' as const } : {}),
    agentFiles,
    trustedProxies,
    cookieSecure: cookieSecureText === 'auto' ? 'auto' : cookieSecureText === 'true',
    ...(metricsToken ? { metricsToken } : {}),
    signInLimits,
    outbound: { allow: outboundAllow.entries, allowPrivate: allowPrivateText === 'true' },
    ...(environment.AGENTLOOM_CONSOLE_DIR
      ? { consoleDirectory: path.resolve(workingDirectory, environment.AGENTLOOM_CONSOLE_DIR) }
      : {}),
  };
}
