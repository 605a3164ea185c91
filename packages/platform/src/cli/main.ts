import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { serve } from '@hono/node-server';
import { migrateToLatest, openPlatformDatabase } from '../adapters/database/index.js';
import { createUser, EmailTakenError } from '../adapters/identity/index.js';
import { prepareFirstStart } from '../application/seed/first-start.js';
import { ConfigurationProblemError, dispatcherKind, loadConfig } from '../config/index.js';
import { apiPrefix } from '../http/create-app.js';
import { createPlatform } from '../platform.js';
import {
  receiveJournalWrites,
  relayJournalWrites,
  type WorkerChildMessage,
  type WorkerParentMessage,
  WorkerSupervisor,
} from '../worker/index.js';

const usage = `Usage: agentloom <command> [options]

Commands:
  serve          Start the HTTP API (default: SQLite under ./.agentloom, demo seeded on first start)
  migrate        Bring the database schema up to date and exit
  create-admin   Create an instance administrator (--email, --password)
  worker         Run a worker only: claims runs from the shared PostgreSQL database (add one per machine);
                 SIGTERM drains it: its runs go to other workers at once

Options: --port <n>  --host <address>  --data-dir <path>  --database-url <url>
Environment: AGENTLOOM_DATABASE_URL, AGENTLOOM_DATA_DIR, AGENTLOOM_SECRET_KEY, AGENTLOOM_PORT or PORT,
             AGENTLOOM_HOST, AGENTLOOM_LOG_LEVEL, AGENTLOOM_BODY_LIMIT_BYTES, AGENTLOOM_SEED_DEMO,
             AGENTLOOM_RUN_LEASE_MS, AGENTLOOM_WORKER_CONCURRENCY, AGENTLOOM_EMBEDDED_WORKERS`;

/** The `agentloom` command line. Returns the exit code; `serve` keeps running until a signal. */
export async function main(argv: readonly string[]): Promise<number> {
  const { positionals, values } = parseArgs({
    args: [...argv],
    allowPositionals: true,
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      'data-dir': { type: 'string' },
      'database-url': { type: 'string' },
      email: { type: 'string' },
      password: { type: 'string' },
      help: { type: 'boolean' },
      'embedded-child': { type: 'boolean' },
    },
  });
  const command = positionals[0];
  if (values.help || !command) {
    console.log(usage);
    return command ? 0 : 1;
  }
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig(
      process.env,
      {
        ...(values.port ? { port: values.port } : {}),
        ...(values.host ? { host: values.host } : {}),
        ...(values['data-dir'] ? { dataDir: values['data-dir'] } : {}),
        ...(values['database-url'] ? { databaseUrl: values['database-url'] } : {}),
      },
      process.env.INIT_CWD ?? process.cwd(),
    );
  } catch (error) {
    if (error instanceof ConfigurationProblemError) {
      console.error(error.message);
      return 2;
    }
    throw error;
  }

  switch (command) {
    case 'migrate': {
      const handle = openPlatformDatabase(config.database);
      try {
        const applied = await migrateToLatest(
          handle.database,
          handle.dialect,
          config.database.dialect === 'postgres' ? config.database.schema : undefined,
        );
        console.log(applied.length > 0 ? `Applied migrations: ${applied.join(', ')}` : 'The database schema is up to date.');
        return 0;
      } finally {
        await handle.close();
      }
    }
    case 'create-admin': {
      if (!values.email || !values.password || values.password.length < 12) {
        console.error('create-admin needs --email and --password (at least 12 characters).');
        return 2;
      }
      const platform = await createPlatform({ config });
      try {
        await createUser(platform.services.database, {
          email: values.email,
          displayName: values.email,
          password: values.password,
          isInstanceAdmin: true,
          now: new Date(),
        });
        console.log(`Created the instance administrator ${values.email}.`);
        return 0;
      } catch (error) {
        if (error instanceof EmailTakenError) {
          console.error(error.message);
          return 1;
        }
        throw error;
      } finally {
        await platform.close();
      }
    }
    case 'worker':
      return values['embedded-child'] ? embeddedWorkerCommand(config) : workerCommand(config);
    case 'serve':
      return serveCommand(config);
    default:
      console.error(`Unknown command "${command}".\n\n${usage}`);
      return 2;
  }
}

/** Resolves on SIGINT or SIGTERM. */
function untilSignal(): Promise<void> {
  return new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
}

/**
 * `agentloom worker`: a process that only executes runs, for more capacity or more machines. It
 * needs the shared PostgreSQL database (with SQLite, `serve` runs the workers itself). It prints
 * one line per run it starts or takes over, with the SDK's owner id, so operators (and the
 * crash tests) can see who holds what.
 */
async function workerCommand(config: ReturnType<typeof loadConfig>): Promise<number> {
  if (config.database.dialect !== 'postgres') {
    console.error(
      '`agentloom worker` needs AGENTLOOM_DATABASE_URL=postgres://…: with SQLite, `agentloom serve` runs the workers itself.',
    );
    return 2;
  }
  const platform = await createPlatform({ config });
  const worker = platform.startWorker({
    onRunStarted: (runId, ownerId) => console.log(`run ${runId} owner ${ownerId} worker ${worker.id}`),
    onDraining: (runIds) => console.log(`worker ${worker.id} draining: handing over ${runIds.length} runs ${runIds.join(' ')}`),
  });
  console.log(
    `AgentLoom worker ${worker.id} ready (pid ${process.pid}, ${config.workerConcurrency} runs at once, dispatcher ${dispatcherKind(config)}, isolation ${worker.capabilities.isolation ? 'bubblewrap' : 'none: runs that run commands are left to other workers'})`,
  );
  // SIGTERM (a deploy) drains like `POST /admin/workers/:id/drain`: every run goes to another
  // worker at once instead of after its lease. A drain asked over HTTP ends the process too.
  await Promise.race([untilSignal(), worker.drained]);
  await worker.drain();
  console.log(`worker ${worker.id} drained`);
  await platform.close();
  return 0;
}

/**
 * `agentloom worker --embedded-child`: the embedded default's worker process, forked by `serve`
 * (ADR 0034). It runs `AGENTLOOM_EMBEDDED_WORKERS` workers on the SQLite file `serve` uses, tells
 * its parent over IPC which runs it executes (for "Crash the worker"), drains on SIGTERM (the
 * parent's stop) and exits at once when its parent dies (the IPC channel closes).
 */
async function embeddedWorkerCommand(config: ReturnType<typeof loadConfig>): Promise<number> {
  const send = (message: WorkerChildMessage) => process.send?.(message);
  const platform = await createPlatform({ config });
  const workers = Array.from({ length: Math.max(1, config.embeddedWorkers) }, () =>
    platform.startWorker({
      onRunStarted: (runId, ownerId) => {
        console.log(`run ${runId} owner ${ownerId}`);
        send({ type: 'run-started', runId, ownerId });
      },
      onRunEnded: (runId) => send({ type: 'run-ended', runId }),
    }),
  );
  for (const worker of workers) send({ type: 'ready', workerId: worker.id });
  // The server's followers wake on each write at once, not at their next check of the file (ADR 0048).
  relayJournalWrites(platform.services.runStore, (writes) => send({ type: 'journal-writes', writes }));
  // The server enqueued a run: claim it now rather than at the idle poll (issue 34).
  process.on('message', (message: WorkerParentMessage) => {
    if (message.type === 'jobs') platform.services.dispatcher.announce();
  });
  // The server died without stopping its worker (SIGKILL, a crash): the worker dies with it, as an
  // in-process worker would, and its runs go to the next worker after their leases.
  process.once('disconnect', () => process.exit(1));
  await untilSignal();
  await Promise.all(workers.map((worker) => worker.drain()));
  await platform.close();
  return 0;
}

/**
 * The embedded default's worker: a supervised child process (ADR 0034), so that "Crash the
 * worker" can SIGKILL it for real and the HTTP server stays up; started once the port is bound
 * (the demo HTTP tool calls that port).
 */
function startEmbeddedWorker(
  platform: Awaited<ReturnType<typeof createPlatform>>,
  config: ReturnType<typeof loadConfig>,
  port: number,
) {
  const script = process.argv[1];
  if (!script) throw new Error('Cannot find the agentloom script to start the worker process.');
  const supervisor = new WorkerSupervisor({
    script,
    args: ['worker', '--embedded-child', '--port', String(port), '--host', config.host, '--data-dir', config.dataDirectory],
    execArgv: process.execArgv,
    logger: platform.services.logger,
    onLine: (line) => console.log(line),
    watchJobs: (listener) => platform.services.dispatcher.watchJobs(listener),
    onJournalWrites: receiveJournalWrites(platform.services.runStore),
  });
  supervisor.start();
  platform.services.workerProcesses = supervisor;
  return supervisor;
}

async function serveCommand(config: ReturnType<typeof loadConfig>): Promise<number> {
  const platform = await createPlatform({ config });
  const embedded = config.database.dialect === 'sqlite';
  // On PostgreSQL the workers stay in this process (more go in `agentloom worker` processes); on
  // the embedded default they run in a supervised child process, started once the port is bound.
  if (!embedded)
    for (let index = 0; index < config.embeddedWorkers; index += 1)
      platform.startWorker({ onRunStarted: (runId, ownerId) => console.log(`run ${runId} owner ${ownerId}`) });
  let supervisor: WorkerSupervisor | undefined;
  if (config.secretKeySource === 'generated') {
    console.log(
      `Generated a secret key into ${config.dataDirectory}/secret.key (mode 0600). Back it up: it decrypts stored credentials.`,
    );
  }
  const firstStart = await prepareFirstStart(platform.services, { createAdmin: embedded, seedDemo: config.seedDemo && embedded });
  const server = serve({ fetch: platform.app.fetch, port: config.port, hostname: config.host }, (info) => {
    // The port bound (`--port 0` picks one): outbound requests may never call the platform itself (P-15.1).
    platform.services.outbound.policy.listeningOn(config.host, info.port);
    if (embedded && config.embeddedWorkers > 0) supervisor = startEmbeddedWorker(platform, config, info.port);
    const url = `http://${config.host}:${info.port}`;
    console.log(`AgentLoom platform listening on ${url} (API ${url}${apiPrefix}, reference ${url}${apiPrefix}/reference)`);
    console.log(
      `Database: ${embedded ? `SQLite at ${config.database.dialect === 'sqlite' ? config.database.file : ''}` : 'PostgreSQL'}; data directory ${config.dataDirectory}`,
    );
    if (firstStart.admin) {
      console.log(`First start: instance administrator ${firstStart.admin.email} with password ${firstStart.admin.password}`);
      console.log('This password is shown only once.');
    }
    if (firstStart.demo)
      console.log(`Seeded the "Demo" space (${firstStart.demo.spaceId}) with ${firstStart.demo.apps} published demo apps.`);
  });
  await untilSignal();
  await supervisor?.stop();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await platform.close();
  return 0;
}

/**
 * Runs the command line and exits with its code; an unexpected error prints its message and exits
 * with 1. `bin/agentloom.js` calls it on the built JavaScript, in its own process.
 */
export function runAndExit(argv: readonly string[]): void {
  main(argv).then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(error instanceof Error ? error.message : error);
      process.exit(1);
    },
  );
}

// Run as a script (`node --import tsx src/cli/main.ts serve`, from the sources in development).
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) runAndExit(process.argv.slice(2));
