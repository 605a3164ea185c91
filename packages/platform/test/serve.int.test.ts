import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentloomBin as cli, ensureBuilt } from '../../../test/support/built-cli.js';

beforeAll(() => ensureBuilt());

/** Starts `agentloom serve` on a free port and resolves with what it printed once it listens. */
function startServer(dataDirectory: string): Promise<{ child: ChildProcess; output: () => string; url: string }> {
  const child = spawn(process.execPath, [cli, 'serve', '--port', '0', '--data-dir', dataDirectory], {
    env: { ...process.env, AGENTLOOM_SECRET_KEY: '', AGENTLOOM_DATABASE_URL: '', INIT_CWD: dataDirectory },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  child.stdout?.on('data', (chunk) => {
    text += String(chunk);
  });
  child.stderr?.on('data', (chunk) => {
    text += String(chunk);
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the server did not start:\n${text}`)), 60_000);
    const check = setInterval(() => {
      const match = /listening on (http:\/\/[^\s]+) /.exec(text);
      if (match?.[1] && /Seeded|password/.test(text)) {
        clearInterval(check);
        clearTimeout(timer);
        resolve({ child, output: () => text, url: match[1] });
      }
    }, 100);
    child.on('exit', (code) => {
      clearInterval(check);
      clearTimeout(timer);
      reject(new Error(`the server exited with ${code}:\n${text}`));
    });
  });
}

describe('agentloom serve on the embedded default', () => {
  const dataDirectory = mkdtempSync(path.join(tmpdir(), 'agentloom-serve-'));
  const children: ChildProcess[] = [];
  afterAll(async () => {
    // SIGTERM: the server closes its database cleanly.
    for (const child of children.filter((item) => item.exitCode === null && item.signalCode === null)) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(dataDirectory, { recursive: true, force: true });
  });

  // Two process starts: give them room on a loaded machine (no time is asserted).
  it('starts, prints the URL and the admin password once, and serves a published demo agent', { timeout: 150_000 }, async () => {
    // The environment variables are emptied above; an empty value must not count as set.
    const server = await startServer(dataDirectory);
    children.push(server.child);
    const password = /with password (\S+)/.exec(server.output())?.[1];
    expect(password).toBeDefined();
    expect(statSync(path.join(dataDirectory, 'secret.key')).mode & 0o777).toBe(0o600);

    const login = await fetch(`${server.url}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'admin@localhost', password }),
    });
    expect(login.status).toBe(200);
    const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    const spaces = (await (await fetch(`${server.url}/api/v1/spaces`, { headers: { cookie } })).json()) as {
      spaces: { id: string; name: string }[];
    };
    expect(spaces.spaces.map((space) => space.name)).toEqual(['Demo']);
    const apps = (await (
      await fetch(`${server.url}/api/v1/spaces/${spaces.spaces[0]?.id}/apps`, { headers: { cookie } })
    ).json()) as { apps: { id: string; latestReleaseId: string | null }[] };
    // The Demo space (issue 35): assistant, planner, two team members, workflow, team workflow, router.
    expect(apps.apps).toHaveLength(7);
    expect(apps.apps.every((app) => app.latestReleaseId !== null)).toBe(true);
    // The built command finds the checkout's console build (`npm ci` makes it) from `dist/cli/`.
    expect(await (await fetch(`${server.url}/spaces`)).text()).toContain('<title>AgentLoom console</title>');

    // A second start on the same data directory keeps everything and prints no new password.
    server.child.kill('SIGTERM');
    await new Promise((resolve) => server.child.once('exit', resolve));
    const again = await startServerAfterFirst(dataDirectory);
    children.push(again.child);
    expect(again.output()).not.toMatch(/password/);
    expect(again.output()).not.toMatch(/Generated a secret key/);
    expect(again.output()).not.toMatch(/Seeded/);
  });
});

/** A restart prints neither a password nor a seed message; wait for the listening line only. */
function startServerAfterFirst(dataDirectory: string): Promise<{ child: ChildProcess; output: () => string }> {
  const child = spawn(process.execPath, [cli, 'serve', '--port', '0', '--data-dir', dataDirectory], {
    env: { ...process.env, AGENTLOOM_SECRET_KEY: '', AGENTLOOM_DATABASE_URL: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  child.stdout?.on('data', (chunk) => {
    text += String(chunk);
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no restart:\n${text}`)), 60_000);
    const check = setInterval(() => {
      if (/Database:/.test(text)) {
        clearInterval(check);
        clearTimeout(timer);
        resolve({ child, output: () => text });
      }
    }, 100);
  });
}

/** A port nothing listens on right now. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/** Whether a new listener can take `port` (it is free). */
function canListenOn(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

/** The ids of the running processes whose command line mentions `text` (Linux `/proc`). */
function processesMentioning(text: string): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(text);
      } catch {
        return false; // it ended while we looked
      }
    })
    .map(Number);
}

describe.skipIf(process.platform !== 'linux')('`agentloom serve` under a supervisor', () => {
  const dataDirectory = mkdtempSync(path.join(tmpdir(), 'agentloom-serve-kill-'));
  afterAll(() => {
    for (const pid of processesMentioning(dataDirectory)) process.kill(pid, 'SIGKILL');
    rmSync(dataDirectory, { recursive: true, force: true });
  });

  // The PID a supervisor holds is the server itself: `kill -9` of it leaves nothing running (no
  // server orphaned by a launcher, still answering and holding its runs' leases) and frees the port.
  it('leaves no process behind when its PID is SIGKILLed', { timeout: 90_000 }, async () => {
    const port = await freePort();
    const child = spawn(process.execPath, [cli, 'serve', '--port', String(port), '--data-dir', dataDirectory], {
      env: { ...process.env, AGENTLOOM_SECRET_KEY: '', AGENTLOOM_DATABASE_URL: '', AGENTLOOM_SEED_DEMO: 'false' },
      stdio: 'ignore',
    });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    let healthy = false;
    while (!healthy && child.exitCode === null) {
      healthy = await fetch(`http://127.0.0.1:${port}/healthz`).then(
        (response) => response.status === 200,
        () => false,
      );
      if (!healthy) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(healthy).toBe(true);
    // The server and, on the embedded default, its supervised worker process (ADR 0034).
    expect(processesMentioning(dataDirectory)).toContain(child.pid);

    process.kill(child.pid as number, 'SIGKILL');
    await exited;
    // The worker process sees its parent gone (its IPC channel closes) and exits at once.
    while (processesMentioning(dataDirectory).length > 0) await new Promise((resolve) => setTimeout(resolve, 50));
    await expect(fetch(`http://127.0.0.1:${port}/healthz`)).rejects.toThrow();
    expect(await canListenOn(port)).toBe(true);
  });
});
