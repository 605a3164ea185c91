import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import pg from 'pg';
import { afterEach } from 'vitest';
import { createUser } from '../src/adapters/identity/index.js';
import { parseOutboundAllow } from '../src/adapters/outbound/index.js';
import { defaultBodyLimitBytes, type PlatformConfig } from '../src/config/index.js';
import { type CreatePlatformOptions, createPlatform, type Platform } from '../src/platform.js';
import { checkReceivedResponses, recordResponse } from './response-contract.js';

/** The PostgreSQL server tests use (`AGENTLOOM_POSTGRES_URL`); each test platform gets its own schema in it. */
export const postgresUrl = process.env.AGENTLOOM_POSTGRES_URL || 'postgres://postgres@127.0.0.1:5432/test';

/**
 * The outbound allow list of every test platform and platform process (`AGENTLOOM_OUTBOUND_ALLOW`):
 * the suites' scripted model, MCP, hook and webhook servers listen on 127.0.0.1 at ports the
 * system picks, so that one address is allowed — not `::1`, the private ranges or the platform's
 * own port, which stay refused. The egress suite builds its platforms without it.
 */
export const testOutboundAllow = '127.0.0.1';

/** Whether PostgreSQL answers; with `AGENTLOOM_REQUIRE_POSTGRES=1` (CI) it is used even when not, so the tests fail. */
async function postgresAnswers(): Promise<boolean> {
  if (process.env.AGENTLOOM_REQUIRE_POSTGRES === '1') return true;
  const client = new pg.Client({ connectionString: postgresUrl, connectionTimeoutMillis: 3_000 });
  client.on('error', () => {});
  try {
    await client.connect();
    return true;
  } catch (error) {
    console.warn(
      `[agentloom] SKIPPED the platform's PostgreSQL suites: ${(error as Error).message}. Set AGENTLOOM_POSTGRES_URL, or AGENTLOOM_REQUIRE_POSTGRES=1 to fail instead.`,
    );
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

/** The dialects every platform suite runs on: SQLite always, PostgreSQL when it answers (or is required). */
export const dialects: readonly ('sqlite' | 'postgres')[] = (await postgresAnswers()) ? ['sqlite', 'postgres'] : ['sqlite'];

// Under Vitest, the responses every test's clients received are checked against the document
// after the test (response-contract.ts); a response that breaks it fails that test.
if (process.env.VITEST) afterEach(checkReceivedResponses);

/** A platform for one test file, with every log line it wrote. */
export interface TestPlatform extends Platform {
  readonly logLines: string[];
  readonly dataDirectory: string;
  destroy(): Promise<void>;
}

/**
 * Creates a platform on a fresh SQLite file or a fresh PostgreSQL schema (unique per call, so
 * concurrent test runs never share tables), with logs captured in memory and outbound requests
 * allowed to `testOutboundAllow` (override `outbound` to test the default deny).
 */
export async function createTestPlatform(
  dialect: 'sqlite' | 'postgres',
  overrides: Partial<PlatformConfig> = {},
  options: Pick<CreatePlatformOptions, 'resolveHost'> & { now?: () => Date } = {},
): Promise<TestPlatform> {
  const dataDirectory = mkdtempSync(path.join(tmpdir(), 'agentloom-platform-'));
  const schema = `platform_test_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
  const config: PlatformConfig = {
    dataDirectory,
    database:
      dialect === 'sqlite'
        ? { dialect: 'sqlite', file: path.join(dataDirectory, 'platform.sqlite') }
        : { dialect: 'postgres', url: postgresUrl, schema },
    secretKey: 'test-secret-key-that-is-long-enough-0123456789',
    secretKeySource: 'environment',
    port: 0,
    host: '127.0.0.1',
    logLevel: 'info',
    bodyLimitBytes: defaultBodyLimitBytes,
    seedDemo: false,
    runLeaseMs: 3_000,
    workerConcurrency: 50,
    embeddedWorkers: 0,
    webhookRetryMs: 5_000,
    webhookAttempts: 10,
    outbound: { allow: parseOutboundAllow(testOutboundAllow).entries, allowPrivate: false },
    ...overrides,
  };
  const logLines: string[] = [];
  const destination = new Writable({
    write(chunk, _encoding, callback) {
      logLines.push(...String(chunk).split('\n').filter(Boolean));
      callback();
    },
  });
  const platform = await createPlatform({ config, logDestination: destination, ...options });
  return {
    ...platform,
    logLines,
    dataDirectory,
    async destroy() {
      await platform.close();
      if (dialect === 'postgres') {
        const client = new pg.Client({ connectionString: postgresUrl });
        await client.connect();
        await client.query(`drop schema if exists "${schema}" cascade`);
        await client.query(`drop schema if exists "${schema}_pgboss" cascade`);
        await client.end();
      }
      rmSync(dataDirectory, { recursive: true, force: true });
    },
  };
}

/** A signed-in test client: remembers the session cookie and sends the CSRF token. */
export class TestClient {
  private cookie: string | undefined;
  private csrfToken: string | undefined;
  private bearer: string | undefined;
  /** Every response body this client received, as text (for the secret-leak scan). */
  readonly bodies: string[] = [];

  /**
   * `remoteAddress` is the TCP peer the platform sees (as `@hono/node-server` passes it); without
   * one the request has no client address, like a call made in-process.
   */
  constructor(
    private readonly platform: Platform,
    private readonly remoteAddress?: string,
  ) {}

  static withApiKey(platform: Platform, secret: string): TestClient {
    const client = new TestClient(platform);
    client.bearer = secret;
    return client;
  }

  async login(email: string, password: string): Promise<this> {
    const response = await this.request('POST', '/auth/login', { email, password });
    if (response.status !== 200) throw new Error(`login failed: ${response.status} ${JSON.stringify(response.body)}`);
    this.csrfToken = (response.body as { csrfToken: string }).csrfToken;
    return this;
  }

  async request(
    method: string,
    apiPath: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<{ status: number; body: unknown; headers: Headers }> {
    const allHeaders: Record<string, string> = { ...headers };
    if (body !== undefined && !allHeaders['content-type']) allHeaders['content-type'] = 'application/json';
    if (this.cookie) allHeaders.cookie = this.cookie;
    if (this.csrfToken && method !== 'GET') allHeaders['x-csrf-token'] = this.csrfToken;
    if (this.bearer) allHeaders.authorization = `Bearer ${this.bearer}`;
    const response = await this.platform.app.request(
      `/api/v1${apiPath}`,
      {
        method,
        headers: allHeaders,
        ...(body !== undefined
          ? {
              body: typeof body === 'string' || body instanceof Uint8Array ? (body as RequestInit['body']) : JSON.stringify(body),
            }
          : {}),
      },
      this.remoteAddress ? { incoming: { socket: { remoteAddress: this.remoteAddress } } } : undefined,
    );
    const setCookie = response.headers.get('set-cookie');
    if (setCookie?.startsWith('agentloom_session=')) this.cookie = setCookie.split(';')[0];
    const text = await response.text();
    this.bodies.push(text);
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // not JSON (e.g. the reference page)
    }
    // Every answer is checked against the served OpenAPI document when the test ends: a drift fails it.
    recordResponse({
      method,
      path: apiPath,
      status: response.status,
      contentType: response.headers.get('content-type'),
      body: parsed,
    });
    return { status: response.status, body: parsed, headers: response.headers };
  }
}

/** Creates a user directly in the database (tests only). */
export async function seedUser(platform: Platform, email: string, options: { admin?: boolean; password?: string } = {}) {
  return createUser(platform.services.database, {
    email,
    displayName: email.split('@')[0] ?? email,
    password: options.password ?? 'correct horse battery staple',
    isInstanceAdmin: options.admin ?? false,
    now: new Date(),
  });
}
