/**
 * What `bench:platform` measures against: a platform listening on a free port with a published
 * 1-loop agent and a space key, `agentloom worker` processes (the built command, as deployed), and a
 * slow OpenAI-compatible model server (a run that is still going when its worker is killed).
 */
import { type ChildProcess, fork, spawn } from 'node:child_process';
import { createServer, Agent as HttpAgent, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { createPlatform, createUser, type JournalWrites, type PlatformConfig, receiveJournalWrites } from '@agentloom/platform';
import { serve } from '@hono/node-server';
import { agentloomBin, ensureBuilt } from '../../test/support/built-cli.js';

const secretKey = 'bench-secret-key-that-is-long-enough-0123456789';
const repositoryRoot = fileURLToPath(new URL('../../', import.meta.url));

/** A platform under measurement. */
export type PlatformTarget = Awaited<ReturnType<typeof platformTarget>>;

/** The platform on `database`, with `inProcessWorkers` workers of its own and an admin session over HTTP. */
export async function platformTarget(
  database: PlatformConfig['database'],
  dataDirectory: string,
  options: { inProcessWorkers: number; leaseMs: number },
) {
  const config: PlatformConfig = {
    dataDirectory,
    database,
    secretKey,
    secretKeySource: 'environment',
    port: 0,
    host: '127.0.0.1',
    logLevel: 'warn',
    bodyLimitBytes: 10 * 1024 * 1024,
    seedDemo: false,
    runLeaseMs: options.leaseMs,
    workerConcurrency: 50,
    embeddedWorkers: options.inProcessWorkers,
    webhookRetryMs: 5_000,
    webhookAttempts: 10,
    // The model servers of the bench listen on 127.0.0.1 (AGENTLOOM_OUTBOUND_ALLOW=127.0.0.1).
    outbound: { allow: [{ kind: 'address', address: '127.0.0.1' }], allowPrivate: false },
    // The same choice as the worker processes, which read it from the environment they inherit.
    ...(process.env.AGENTLOOM_DISPATCHER === 'lease-table' ? { dispatcher: 'lease-table' as const } : {}),
  };
  const platform = await createPlatform({ config });
  for (let index = 0; index < options.inProcessWorkers; index += 1) platform.startWorker();
  const server = serve({ fetch: platform.app.fetch, port: 0, hostname: '127.0.0.1' });
  await new Promise((resolve) => server.once('listening', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`;
  await createUser(platform.services.database, {
    email: 'bench@example.com',
    displayName: 'bench',
    password: 'correct horse battery staple',
    isInstanceAdmin: true,
    now: new Date(),
  });
  const login = await fetch(`${base}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'bench@example.com', password: 'correct horse battery staple' }),
  });
  const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  const { csrfToken } = (await login.json()) as { csrfToken: string };
  const call = async <Answer>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: { cookie, 'x-csrf-token': csrfToken, 'content-type': 'application/json', ...headers },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    const json = (await response.json()) as Record<string, unknown>;
    if (response.status >= 400) throw new Error(`${method} ${path} → ${response.status} ${JSON.stringify(json)}`);
    return json as Answer;
  };
  const { space } = await call<{ space: { id: string } }>('POST', '/spaces', { name: 'Bench' });
  const key = await call<{ secret: string }>('POST', `/spaces/${space.id}/api-keys`, { name: 'bench' });
  const authorization = `Bearer ${key.secret}`;

  /** Publishes a ReAct agent on a model connection (`connection` is the POST body of the connection). */
  const publishApp = async (name: string, connection: Record<string, unknown>, modelId: string) => {
    const created = await call<{ connection: { id: string } }>('POST', `/spaces/${space.id}/model-connections`, connection);
    const { app } = await call<{ app: { id: string } }>('POST', `/spaces/${space.id}/apps`, {
      kind: 'agent',
      mode: 'react',
      name,
    });
    const { draft } = await call<{ draft: { revision: number } }>('GET', `/apps/${app.id}/draft`);
    await call(
      'PUT',
      `/apps/${app.id}/draft`,
      { config: { model: { connectionId: created.connection.id, modelId }, prompt: { text: 'Answer briefly.' } } },
      { 'if-match': `"${draft.revision}"` },
    );
    await call('POST', `/apps/${app.id}/releases`, { notes: 'bench' });
    return app.id;
  };
  const demoApp = await publishApp(
    'Bench agent',
    {
      name: 'Demo',
      provider: 'offline-demo',
      settings: { demoReplies: [], demoFallback: 'Done.' },
      models: [{ modelId: 'demo-1' }],
    },
    'demo-1',
  );

  // The load generator's own cost should stay small beside the platform's, in the same process:
  // plain node:http over kept-alive connections (fetch's web streams cost the client ~3 times as
  // much CPU per request in a profile of this bench).
  const agent = new HttpAgent({ keepAlive: true, maxSockets: 256 });
  const url = new URL(base);
  /** One request; answers the status and the whole body. */
  const send = (method: string, path: string, body?: string) =>
    new Promise<{ status: number; text: string }>((resolve, reject) => {
      const headers: Record<string, string> = { authorization };
      if (body !== undefined) {
        headers['content-type'] = 'application/json';
        headers['content-length'] = String(Buffer.byteLength(body));
      }
      const outgoing = httpRequest(
        { agent, method, host: url.hostname, port: url.port, path: `${url.pathname}${path}`, headers },
        (response) => {
          let text = '';
          response.setEncoding('utf8');
          response.on('data', (chunk: string) => {
            text += chunk;
          });
          response.once('end', () => resolve({ status: response.statusCode ?? 0, text }));
          response.once('error', reject);
        },
      );
      outgoing.once('error', reject);
      outgoing.end(body);
    });

  /** Starts a run of `appId`; answers its id. */
  const submit = async (appId: string, input: string) => {
    const answer = await send('POST', `/apps/${appId}/runs`, JSON.stringify({ input }));
    if (answer.status !== 202) throw new Error(`POST /apps/${appId}/runs → ${answer.status} ${answer.text}`);
    return (JSON.parse(answer.text) as { runId: string }).runId;
  };
  /**
   * One run through the API as a chat client makes it: `POST /apps/{appId}/runs` with
   * `mode: 'stream'`, whose answer is the run's SSE stream, read to its terminal event.
   */
  const oneStreamedRun = async (index: number) => {
    const { status, text } = await send(
      'POST',
      `/apps/${demoApp}/runs`,
      JSON.stringify({ input: `question ${index}`, mode: 'stream' }),
    );
    if (status !== 200 || !text.includes('event: run-finish'))
      throw new Error(`streamed run ${index} → ${status} without run-finish`);
  };
  /** One run in two requests: submit, then `GET /runs/{runId}/events` to the terminal event. */
  const oneRun = async (index: number) => {
    const runId = await submit(demoApp, `question ${index}`);
    const { text } = await send('GET', `/runs/${runId}/events`);
    if (!text.includes('event: run-finish')) throw new Error(`run ${runId} ended without run-finish`);
  };
  return {
    platform,
    base,
    authorization,
    demoApp,
    publishApp,
    submit,
    oneStreamedRun,
    oneRun,
    async close() {
      agent.destroy();
      (server as import('node:http').Server).closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await platform.close();
    },
  };
}

/** An `agentloom worker` process; `owned` fills with the run ids it reports starting. */
export interface WorkerProcess {
  child: ChildProcess;
  owned: Set<string>;
  exited: Promise<void>;
}

/**
 * The embedded default's worker as `agentloom serve` runs it (ADR 0034): the built
 * `agentloom worker --embedded-child` forked on `target`'s SQLite file with `workers` workers,
 * told over IPC of each job the API enqueues (what serve's supervisor does), so it claims at once,
 * and reporting its journal writes to this process's followers (ADR 0048).
 * `BENCH_CHILD_EXEC_ARGV` (space-separated) passes Node options to the child, e.g.
 * `--cpu-prof --cpu-prof-dir=/tmp/profiles` to profile the worker while the bench runs.
 */
export async function startEmbeddedWorkerChild(
  target: PlatformTarget,
  dataDirectory: string,
  workers: number,
  leaseMs: number,
): Promise<{ pid: number; close(): Promise<void> }> {
  ensureBuilt();
  const port = new URL(target.base).port;
  // The data directory's SQLite file, as serve's child finds it (no database URL).
  const { AGENTLOOM_DATABASE_URL: _url, ...environment } = process.env;
  const child = fork(
    agentloomBin,
    ['worker', '--embedded-child', '--port', port, '--host', '127.0.0.1', '--data-dir', dataDirectory],
    {
      cwd: repositoryRoot,
      env: {
        ...environment,
        AGENTLOOM_SECRET_KEY: secretKey,
        AGENTLOOM_EMBEDDED_WORKERS: String(workers),
        AGENTLOOM_WORKER_CONCURRENCY: '50',
        AGENTLOOM_RUN_LEASE_MS: String(leaseMs),
        AGENTLOOM_LOG_LEVEL: 'warn',
        AGENTLOOM_OUTBOUND_ALLOW: '127.0.0.1',
      },
      execArgv: process.env.BENCH_CHILD_EXEC_ARGV ? process.env.BENCH_CHILD_EXEC_ARGV.split(' ') : [],
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  // The child reports its journal writes, and this process's followers wake on them, as under serve (ADR 0048).
  const onJournalWrites = receiveJournalWrites(target.platform.services.runStore);
  child.on('message', (message: { type?: string; writes?: JournalWrites }) => {
    if (message.type === 'journal-writes' && message.writes) onJournalWrites?.(message.writes);
  });
  let ready = 0;
  await new Promise<void>((resolve, reject) => {
    child.on('message', (message: { type?: string }) => {
      if (message.type === 'ready' && ++ready === workers) resolve();
    });
    void exited.then(() => reject(new Error('the embedded worker child exited before it was ready')));
  });
  let pending = false;
  const unwatch = target.platform.services.dispatcher.watchJobs(() => {
    if (pending) return;
    pending = true;
    setImmediate(() => {
      pending = false;
      if (child.connected) child.send({ type: 'jobs' }, () => {});
    });
  });
  return {
    pid: child.pid as number,
    async close() {
      unwatch();
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** Starts the built `agentloom worker` on the PostgreSQL URL (schema in its `schema` parameter). */
export async function startWorkerProcess(databaseUrl: string, leaseMs: number): Promise<WorkerProcess> {
  ensureBuilt();
  const child = spawn(process.execPath, [agentloomBin, 'worker'], {
    cwd: repositoryRoot,
    env: {
      ...process.env,
      AGENTLOOM_DATABASE_URL: databaseUrl,
      AGENTLOOM_SECRET_KEY: secretKey,
      AGENTLOOM_RUN_LEASE_MS: String(leaseMs),
      AGENTLOOM_WORKER_CONCURRENCY: '50',
      AGENTLOOM_LOG_LEVEL: 'warn',
      AGENTLOOM_OUTBOUND_ALLOW: '127.0.0.1',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const owned = new Set<string>();
  let output = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      output += String(chunk);
      for (const match of output.matchAll(/^run (\S+) owner /gm)) owned.add(match[1] as string);
      if (output.includes(' ready (pid')) resolve();
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      output += String(chunk);
    });
    void exited.then(() => reject(new Error(`agentloom worker exited: ${output}`)));
  });
  return { child, owned, exited };
}

/** An OpenAI-compatible model that answers "Done." after `delayMs` (a run that lasts that long). */
export async function slowModelServer(delayMs: number): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      setTimeout(() => {
        if (response.destroyed) return;
        response.writeHead(200, { 'content-type': 'text/event-stream' });
        const chunk = (delta: Record<string, unknown>, finish: string | null) =>
          `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 0, model: 'slow', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
        response.end(`${chunk({ role: 'assistant', content: 'Done.' }, null)}${chunk({}, 'stop')}data: [DONE]\n\n`);
      }, delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
