import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import proxyAddress from 'proxy-addr';
import { randomToken } from '../adapters/crypto/index.js';
import type { DatabaseLocation } from '../adapters/database/index.js';
import { parseOutboundAllow } from '../adapters/outbound/index.js';
import {
  type AgentFileLimits,
  type ConfigFlags,
  ConfigurationProblemError,
  defaultAgentFileLimits,
  defaultBodyLimitBytes,
  defaultMcpConnectAttempts,
  type PlatformConfig,
} from './platform-config.js';
import { defaultSignInLimits, mostAccountFailuresPerWindow, type SignInLimits } from './sign-in-limits.js';

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
