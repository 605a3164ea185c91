import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentloomBin as cli, ensureBuilt } from '../../../test/support/built-cli.js';
import { demoQuestions } from '../src/application/seed/demo-content.js';
import { demoAppNames } from '../src/application/seed/seed-demo-space.js';

beforeAll(() => ensureBuilt(), 300_000);

/**
 * "Crash the worker" for real (issue 35, ADR 0034): `agentloom serve` on the embedded default
 * runs its worker in a supervised child process; the route SIGKILLs the process that owns a
 * demo run mid-run; the HTTP server stays up, a fresh worker process takes the same run over
 * after its lease, and the run finishes without redoing the tool calls it had saved.
 */
describe('Crash the worker on the embedded default', () => {
  const dataDirectory = mkdtempSync(path.join(tmpdir(), 'agentloom-demo-crash-'));
  let child: ChildProcess | undefined;
  let output = '';
  afterAll(async () => {
    if (child && child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child?.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(dataDirectory, { recursive: true, force: true });
  });

  it('kills the owning worker process; a fresh one finishes the same run, no saved step redone', {
    timeout: 180_000,
  }, async () => {
    child = spawn(process.execPath, [cli, 'serve', '--port', '0', '--data-dir', dataDirectory], {
      // A short lease so the takeover comes soon (no time is asserted); no outbound allow-list: the
      // demo HTTP tool reaches the platform through the default egress policy.
      env: {
        ...process.env,
        AGENTLOOM_SECRET_KEY: '',
        AGENTLOOM_DATABASE_URL: '',
        AGENTLOOM_OUTBOUND_ALLOW: '',
        AGENTLOOM_RUN_LEASE_MS: '2000',
        INIT_CWD: dataDirectory,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout?.on('data', (chunk) => {
      output += String(chunk);
    });
    child.stderr?.on('data', (chunk) => {
      output += String(chunk);
    });
    const waitFor = async (pattern: RegExp) => {
      for (;;) {
        const match = pattern.exec(output);
        if (match) return match;
        if (child?.exitCode !== null) throw new Error(`serve exited:\n${output}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    };
    const url = (await waitFor(/listening on (http:\/\/[^\s]+) /))[1];
    const password = (await waitFor(/with password (\S+)/))[1];
    const login = await fetch(`${url}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'admin@localhost', password }),
    });
    const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    const { csrfToken } = (await login.json()) as { csrfToken: string };
    const call = async (method: string, apiPath: string, body?: unknown) => {
      const response = await fetch(`${url}/api/v1${apiPath}`, {
        method,
        headers: { cookie, 'x-csrf-token': csrfToken, ...(body ? { 'content-type': 'application/json' } : {}) },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    };
    const spaces = (await call('GET', '/spaces')).body.spaces as { id: string; name: string }[];
    const demo = spaces.find((space) => space.name === 'Demo');
    const apps = (await call('GET', `/spaces/${demo?.id}/apps`)).body.apps as { id: string; name: string }[];
    const assistant = apps.find((app) => app.name === demoAppNames.assistant);
    await waitFor(/run_worker|AgentLoom|listening/);

    const started = await call('POST', `/apps/${assistant?.id}/runs`, { input: demoQuestions.assistant });
    expect(started.status).toBe(202);
    const runId = started.body.runId as string;

    // Follow the run's events; once both tool calls are saved the model "thinks" for seconds: crash then.
    const events = async (until: (text: string) => boolean) => {
      const controller = new AbortController();
      const response = await fetch(`${url}/api/v1/runs/${runId}/events`, { headers: { cookie }, signal: controller.signal });
      const reader = (response.body as ReadableStream<Uint8Array>).getReader();
      // One decoder in streaming mode: a character split across two chunks stays whole.
      const decoder = new TextDecoder();
      let text = '';
      while (!until(text)) {
        const { done, value } = await reader.read();
        if (done) break;
        text += decoder.decode(value, { stream: true });
      }
      controller.abort();
      return text;
    };
    const count = (text: string, tool: string) =>
      text
        .split('\n')
        .filter((line) => line.startsWith('data:') && line.includes('"tool-call-finish"') && line.includes(`"${tool}"`)).length;
    // Read the run from the store (its view) until its first tool call is saved; then crash the worker
    // mid-run (the event stream may lag on a loaded machine, the view does not).
    for (;;) {
      const { body } = await call('GET', `/runs/${runId}/view`);
      if (JSON.stringify(body).includes('"demo_lookup"')) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const crash = await call('POST', `/runs/${runId}/crash-worker`);
    expect(crash.status, JSON.stringify(crash.body)).toBe(202);
    const pid = crash.body.pid as number;
    // The process is gone once the kernel delivered the signal and the server reaped it.
    const alive = () => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    };
    while (alive()) await new Promise((resolve) => setTimeout(resolve, 20));

    // The HTTP server is up and answers while the fresh worker takes over.
    for (;;) {
      const { status, body } = await call('GET', `/runs/${runId}`);
      expect(status).toBe(200);
      const run = body.run as { status: string; output: unknown };
      if (run.status === 'succeeded') {
        expect(String(run.output)).toMatch(/^\[Scripted demo\] /);
        // The lookup's facts, or — when the kill hit the HTTP call in flight — its outcome recorded as unknown, never run again behind the user's back.
        expect(String(run.output)).toMatch(/journaled|unknown-outcome/);
        break;
      }
      expect(['queued', 'running']).toContain(run.status);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const all = await events((text) => text.includes('event: run-finish'));
    expect(count(all, 'write_file')).toBe(1);
    expect(count(all, 'demo_lookup')).toBe(1);
    // Two owners: the killed worker, then the fresh one (each prints the run it owns).
    const owners = [...output.matchAll(new RegExp(`run ${runId} owner (\\S+)`, 'g'))].map((match) => match[1]);
    expect(new Set(owners).size).toBe(2);
  });
});
