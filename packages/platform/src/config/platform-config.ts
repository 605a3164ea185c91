import type { DatabaseLocation } from '../adapters/database/index.js';
import type { OutboundSettings } from '../adapters/outbound/index.js';
import type { SignInLimits } from './sign-in-limits.js';

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
