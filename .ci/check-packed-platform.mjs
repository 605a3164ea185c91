#!/usr/bin/env node
/**
 * Checks the platform as a team installs it (issue 29): packs `@agentloom/platform` and the SDK and
 * intent packages it depends on (not on the registry) with `npm pack`, installs the tarballs into an empty
 * folder outside the workspace, and runs `npx agentloom serve` there: `/healthz` answers, the
 * packed console is served at `/`, the first-start admin signs in and the seeded demo agent
 * answers a run. A package that ships without its build, a built module that needs a source file,
 * a dev-only dependency or the workspace's layout fails CI here.
 *
 * Cost: the platform's `prepack` only copies the console (the build is fresh after `npm ci`); the
 * SDK is packed without its `prepack` for the same reason (`check-packed-readme.mjs` checks that
 * path). The install takes its tarballs from npm's cache (`--prefer-offline`) and skips install
 * scripts: the one dependency that has any, better-sqlite3, would compile SQLite again (about two
 * minutes of one core), so its binary is taken from the workspace, where `npm ci` compiled the
 * very same version for the same Node. `--compile` compiles it instead.
 *
 * Usage: node .ci/check-packed-platform.mjs [--keep] [--compile]
 */
import { execFileSync, spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const keep = process.argv.includes('--keep');
const compile = process.argv.includes('--compile');
const scratch = mkdtempSync(join(tmpdir(), 'agentloom-packed-platform-'));
const run = (command, args, cwd) => execFileSync(command, args, { cwd, stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8' });
const seconds = (since) => `${((performance.now() - since) / 1000).toFixed(1)} s`;

/** Packs the workspace package in `folder`; answers the tarball's path and the files it holds. */
function pack(folder, extra = []) {
  const [packed] = JSON.parse(run('npm', ['pack', '--json', '--pack-destination', scratch, ...extra], join(root, folder)));
  return { tarball: join(scratch, packed.filename), files: packed.files.map((file) => file.path) };
}

/** Starts `npx agentloom serve` in `app` in its own process group; resolves once it printed its URL and password. */
function startServe(app) {
  const child = spawn('npx', ['agentloom', 'serve', '--port', '0', '--data-dir', join(scratch, 'data')], {
    cwd: app,
    detached: true,
    env: { ...process.env, AGENTLOOM_SECRET_KEY: '', AGENTLOOM_DATABASE_URL: '', AGENTLOOM_CONSOLE_DIR: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  for (const stream of [child.stdout, child.stderr]) stream.on('data', (chunk) => (output += String(chunk)));
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    process.kill(-child.pid, 'SIGTERM');
    await exited;
  };
  return new Promise((resolve, reject) => {
    const fail = (why) => {
      clearInterval(check);
      void stop().then(() => reject(new Error(`${why}:\n${output}`)));
    };
    const timer = setTimeout(() => fail('`npx agentloom serve` did not start within 60 s'), 60_000);
    const check = setInterval(() => {
      const url = /listening on (http:\/\/\S+) /.exec(output)?.[1];
      const password = /with password (\S+)/.exec(output)?.[1];
      if (url && password && /Seeded/.test(output)) {
        clearInterval(check);
        clearTimeout(timer);
        resolve({ url, password, stop, output: () => output });
      }
    }, 100);
    child.once('exit', (code) => {
      clearTimeout(timer);
      fail(`\`npx agentloom serve\` exited with ${code}`);
    });
  });
}

async function expectStatus(response, status, what) {
  if (response.status !== status) throw new Error(`${what}: ${response.status} ${await response.text()}`);
  return response;
}

let server;
try {
  let started = performance.now();
  run('node', ['packages/platform/scripts/build.js', '--if-stale'], root);
  const sdk = pack('packages/sdk', ['--ignore-scripts']);
  // The router apps use the intent layer, which is not on the registry either.
  const intent = pack('packages/intent', ['--ignore-scripts']);
  const platform = pack('packages/platform');
  for (const required of ['bin/agentloom.js', 'dist/cli/main.js', 'dist/index.js', 'console/index.html']) {
    if (!platform.files.includes(required)) throw new Error(`the packed platform lacks ${required}`);
  }
  const unexpected = platform.files.filter((file) => /^(src|test|scripts)\/|\.test\.|^console\/\.vite\//.test(file));
  if (unexpected.length > 0) throw new Error(`the packed platform carries ${unexpected.join(', ')}`);
  if (!sdk.files.includes('dist/index.js')) throw new Error('the packed SDK lacks dist/index.js: run `npm run build`');
  if (!intent.files.includes('dist/index.js'))
    throw new Error('the packed intent package lacks dist/index.js: run `npm run build`');
  console.log(
    `== packed the SDK (${sdk.files.length} files) and the platform (${platform.files.length} files) in ${seconds(started)}`,
  );

  const app = join(scratch, 'app');
  mkdirSync(app);
  writeFileSync(
    join(app, 'package.json'),
    `${JSON.stringify(
      {
        name: 'packed-platform-app',
        private: true,
        dependencies: {
          '@agentloom/sdk': `file:${sdk.tarball}`,
          '@agentloom/intent': `file:${intent.tarball}`,
          '@agentloom/platform': `file:${platform.tarball}`,
        },
        allowScripts: { 'better-sqlite3': true },
      },
      null,
      2,
    )}\n`,
  );
  started = performance.now();
  run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', ...(compile ? [] : ['--ignore-scripts'])], app);
  if (!compile) {
    const version = (folder) =>
      JSON.parse(readFileSync(join(folder, 'node_modules/better-sqlite3/package.json'), 'utf8')).version;
    if (version(app) !== version(root)) throw new Error(`better-sqlite3 ${version(app)} here, ${version(root)} in the workspace`);
    const binary = 'node_modules/better-sqlite3/build/Release/better_sqlite3.node';
    mkdirSync(dirname(join(app, binary)), { recursive: true });
    copyFileSync(join(root, binary), join(app, binary));
  }
  console.log(`== installed both tarballs into ${app} in ${seconds(started)}${compile ? ' (better-sqlite3 compiled)' : ''}`);

  started = performance.now();
  server = await startServe(app);
  await expectStatus(await fetch(`${server.url}/healthz`), 200, '/healthz');
  const page = await (await expectStatus(await fetch(`${server.url}/`), 200, 'the console')).text();
  if (!page.includes('AgentLoom console')) throw new Error(`/ is not the packed console:\n${page.slice(0, 300)}`);
  const login = await expectStatus(
    await fetch(`${server.url}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'admin@localhost', password: server.password }),
    }),
    200,
    'signing in',
  );
  const headers = {
    cookie: (login.headers.get('set-cookie') ?? '').split(';')[0],
    'x-csrf-token': (await login.json()).csrfToken,
    'content-type': 'application/json',
  };
  const api = async (path, init = {}) => (await fetch(`${server.url}/api/v1${path}`, { headers, ...init })).json();
  const [space] = (await api('/spaces')).spaces;
  const [demo] = (await api(`/spaces/${space.id}/apps`)).apps;
  const answer = await api(`/apps/${demo.id}/runs?wait=30`, {
    method: 'POST',
    body: JSON.stringify({ input: 'hello', mode: 'blocking' }),
  });
  // The seeded Demo space's first app answers through the scripted demo model, which labels its answers.
  if (answer.run?.status !== 'succeeded' || !answer.run.output.startsWith('[Scripted demo] '))
    throw new Error(`the demo agent's run did not succeed: ${JSON.stringify(answer)}`);
  console.log(`== \`npx agentloom serve\` answered /healthz, the console and a demo run in ${seconds(started)}`);
  console.log('packed platform check passed');
} finally {
  await server?.stop();
  if (keep) console.log(`kept ${scratch}`);
  else rmSync(scratch, { recursive: true, force: true });
}
