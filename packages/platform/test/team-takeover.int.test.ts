/**
 * A team node survives its worker (issue 31 part 7, N-12, R-6): the process running a workflow
 * whose team (a group chat of two published agent apps) is mid-conversation — three turns saved,
 * the fourth member's model call in flight — is SIGKILLed. Another worker takes the same run id
 * over: on SQLite the restarted `agentloom serve` (its embedded worker), on PostgreSQL the other
 * of two `agentloom worker` processes. No saved turn is redone (each member's model sees exactly
 * the calls of the uninterrupted run plus the one the kill cut), every team turn appears once in
 * the run's events, and the answer is the fourth turn's.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ScriptedModel } from '@agentloom/sdk/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LanguageModelServer } from './example-servers.js';
import { dialects, type TestClient } from './harness.js';
import { httpClient, type PlatformProcess, postgresProcessEnvironment, runCommand, startProcess } from './process-harness.js';
import { parseSse, waitForTerminal, waitUntil } from './run-helpers.js';
import { createAgentApp, createWorkflowApp, teamWorkflowDraft } from './team-fixture.js';
import { createExampleSpace, expectStatus } from './workflow-fixture.js';

const scratch = mkdtempSync(path.join(tmpdir(), 'agentloom-team-takeover-'));
const processes: PlatformProcess[] = [];
const cleanups: (() => Promise<void>)[] = [];
const WRITER = 'You write short explanations.';
const CRITIC = 'You review what the writer wrote.';
const password = 'team takeover password 0123';
let model: LanguageModelServer;

/** Each member answers with its role and how many messages it was shown: the same on every run. */
const scripted = new ScriptedModel({
  respond: (request) => ({
    text: `${request.system.startsWith(WRITER) ? 'writer' : 'critic'} saw ${request.messages.length} messages`,
  }),
});
const callsOf = (system: string) =>
  [...model.callsBySystem.entries()].filter(([key]) => key.startsWith(system)).reduce((sum, [, count]) => sum + count, 0);

beforeAll(async () => {
  model = await new LanguageModelServer(scripted).start();
});
afterAll(async () => {
  await Promise.all(processes.map((item) => item.kill('SIGTERM')));
  for (const cleanup of cleanups) await cleanup();
  await model?.close();
  rmSync(scratch, { recursive: true, force: true });
});

/**
 * Publishes the team workflow, starts a run whose fourth turn is held at the model, kills the
 * worker running it (`kill`, answering a client of a live API) and checks what the next worker did.
 */
async function killMidConversation(client: TestClient, kill: (runId: string) => Promise<TestClient>): Promise<void> {
  const space = await createExampleSpace(client, model.url, 'Team takeover');
  const connection = { connectionId: space.connectionId, modelId: 'example' };
  const writer = await createAgentApp(client, space.spaceId, 'writer', connection, WRITER);
  const critic = await createAgentApp(client, space.spaceId, 'critic', connection, CRITIC);
  const members = [
    { name: 'writer', appId: writer },
    { name: 'critic', appId: critic },
  ];
  const appId = await createWorkflowApp(client, space.spaceId, 'Team flow', teamWorkflowDraft(members, { maxTurns: 4 }));
  await expectStatus(client.request('POST', `/apps/${appId}/releases`, {}), 201);
  const before = [callsOf(WRITER), callsOf(CRITIC)] as const;

  // Hold the critic's second turn (the team's fourth) until the kill.
  let open: () => void = () => {};
  model.gate = new Promise<void>((resolve) => {
    open = resolve;
  });
  model.holdWhen = (request) => request.system.startsWith(CRITIC) && request.messages.length >= 4;
  const { runId } = await expectStatus<{ runId: string }>(
    client.request('POST', `/apps/${appId}/runs`, { input: { question: 'Explain the tides.' } }),
    202,
  );
  await waitUntil(async () => {
    const { body } = await client.request('GET', `/runs/${runId}/view`);
    const tasks = (body as { view?: { workflow?: { tasks: { taskId: string; status: string }[] } } }).view?.workflow?.tasks ?? [];
    const thirdTurnSaved = tasks.some((task) => task.taskId === '5/pair.turn' && task.status === 'succeeded');
    return thirdTurnSaved && callsOf(CRITIC) - before[1] >= 2;
  }, 50);
  expect([callsOf(WRITER) - before[0], callsOf(CRITIC) - before[1]]).toEqual([2, 2]);
  const next = await kill(runId);
  model.gate = undefined;
  model.holdWhen = undefined;
  open();

  const run = await waitForTerminal(next, runId);
  expect(run.status, JSON.stringify(run)).toBe('succeeded');
  expect(run.id).toBe(runId);
  expect(run.output).toEqual({ answer: 'critic saw 4 messages' });
  // No saved turn was redone: the writer's two calls stand, the critic re-sent only the cut one.
  expect([callsOf(WRITER) - before[0], callsOf(CRITIC) - before[1]]).toEqual([2, 3]);

  const events = parseSse((await next.request('GET', `/runs/${runId}/events`)).body as string).events;
  const turns = events.flatMap((event) =>
    event.event === 'team-turn' ? [`${(event.data as { turn: number }).turn} ${(event.data as { text: string }).text}`] : [],
  );
  expect(turns).toEqual([
    '1 writer saw 1 messages',
    '2 critic saw 2 messages',
    '3 writer saw 3 messages',
    '4 critic saw 4 messages',
  ]);
  expect(events.filter((event) => event.event === 'team-stop')).toHaveLength(1);
  const rows = await next.request('GET', `/apps/${appId}/runs`);
  expect((rows.body as { runs: unknown[] }).runs).toHaveLength(1);
}

describe('a team node survives a SIGKILL of its worker mid-conversation (R-6, N-12)', () => {
  it('SQLite: finishes on the restarted server with the same run id, no turn redone', { timeout: 180_000 }, async () => {
    const dataDirectory = path.join(scratch, 'sqlite');
    const environment = {
      AGENTLOOM_DATA_DIR: dataDirectory,
      AGENTLOOM_DATABASE_URL: '',
      AGENTLOOM_SECRET_KEY: '',
      AGENTLOOM_RUN_LEASE_MS: '1500',
      AGENTLOOM_SEED_DEMO: 'false',
      AGENTLOOM_LOG_LEVEL: 'warn',
      INIT_CWD: dataDirectory,
    };
    const server = startProcess('serve', environment, ['--port', '0']);
    processes.push(server);
    const admin = (await server.waitFor(/instance administrator (\S+) with password (\S+)/)) as RegExpExecArray;
    const signIn = async (process: PlatformProcess) => {
      const baseUrl = (await process.waitFor(/listening on (http:\/\/\S+) /))[1] as string;
      return httpClient(baseUrl).login(admin[1] as string, admin[2] as string);
    };
    await killMidConversation(await signIn(server), async () => {
      await server.kill('SIGKILL');
      const restarted = startProcess('serve', environment, ['--port', '0']);
      processes.push(restarted);
      return signIn(restarted);
    });
  });

  it.runIf(dialects.includes('postgres'))(
    'PostgreSQL: the other of two worker processes finishes the same run id, no turn redone',
    { timeout: 180_000 },
    async () => {
      const { environment, drop } = postgresProcessEnvironment('team_takeover', path.join(scratch, 'postgres'));
      cleanups.push(drop);
      const created = runCommand(['create-admin', '--email', 'ops@example.com', '--password', password], environment);
      expect(created.status, created.output).toBe(0);
      const api = startProcess('serve', environment, ['--port', '0']);
      const workers = [startProcess('worker', environment), startProcess('worker', environment)];
      processes.push(api, ...workers);
      const baseUrl = (await api.waitFor(/listening on (http:\/\/\S+) /))[1] as string;
      await Promise.all(workers.map((worker) => worker.waitFor(/ready/)));
      const client = await httpClient(baseUrl).login('ops@example.com', password);
      let taken = '';
      let survivor: PlatformProcess | undefined;
      await killMidConversation(client, async (runId) => {
        taken = `run ${runId} owner`;
        await waitUntil(() => workers.some((worker) => worker.output().includes(taken)));
        const owner = workers.find((worker) => worker.output().includes(taken)) as PlatformProcess;
        survivor = workers.find((worker) => worker !== owner);
        await owner.kill('SIGKILL');
        return client;
      });
      // The run was taken over by the other worker process.
      expect(survivor?.output()).toContain(taken);
    },
  );
});
