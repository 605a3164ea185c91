/**
 * A team node survives its worker (issue 31 part 7, N-12, R-6): the process running a workflow
 * whose team (a group chat of two published agent apps) is mid-conversation — three turns saved,
 * the fourth member's model call in flight — is SIGKILLed (`agentloom serve` with its embedded
 * worker, SQLite). The restarted server's worker takes the same run id over: no saved turn is
 * redone (each member's model sees exactly the calls of the uninterrupted run plus the one the
 * kill cut), every team turn appears once in the run's events, and the answer is the fourth turn's.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ScriptedModel } from '@agentloom/sdk/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LanguageModelServer } from './example-servers.js';
import { httpClient, type PlatformProcess, startProcess } from './process-harness.js';
import { parseSse, waitForTerminal, waitUntil } from './run-helpers.js';
import { createAgentApp, createWorkflowApp, teamWorkflowDraft } from './team-fixture.js';
import { createExampleSpace, expectStatus } from './workflow-fixture.js';

const scratch = mkdtempSync(path.join(tmpdir(), 'agentloom-team-takeover-'));
const processes: PlatformProcess[] = [];
const WRITER = 'You write short explanations.';
const CRITIC = 'You review what the writer wrote.';
let model: LanguageModelServer;

/** Each member answers with its role and how many messages it was shown: the same on every run. */
const scripted = new ScriptedModel({
  respond: (request) => ({
    text: `${request.system.startsWith(WRITER) ? 'writer' : 'critic'} saw ${request.messages.length} messages`,
  }),
});

beforeAll(async () => {
  model = await new LanguageModelServer(scripted).start();
});
afterAll(async () => {
  await Promise.all(processes.map((item) => item.kill('SIGTERM')));
  await model?.close();
  rmSync(scratch, { recursive: true, force: true });
});

describe('a team node survives a SIGKILL of its worker mid-conversation (R-6, N-12)', () => {
  it('finishes on the restarted server with the same run id, no turn redone', { timeout: 180_000 }, async () => {
    const dataDirectory = path.join(scratch, 'platform');
    const environment = {
      AGENTLOOM_DATA_DIR: dataDirectory,
      AGENTLOOM_DATABASE_URL: '',
      AGENTLOOM_SECRET_KEY: '',
      AGENTLOOM_RUN_LEASE_MS: '1500',
      AGENTLOOM_SEED_DEMO: 'false',
      AGENTLOOM_LOG_LEVEL: 'warn',
      INIT_CWD: dataDirectory,
    };
    let server = startProcess('serve', environment, ['--port', '0']);
    processes.push(server);
    const admin = (await server.waitFor(/instance administrator (\S+) with password (\S+)/)) as RegExpExecArray;
    let baseUrl = (await server.waitFor(/listening on (http:\/\/\S+) /))[1] as string;
    const signIn = (url: string) => httpClient(url).login(admin[1] as string, admin[2] as string);
    let client = await signIn(baseUrl);
    const space = await createExampleSpace(client, model.url, 'Team takeover');
    const connection = { connectionId: space.connectionId, modelId: 'example' };
    const writer = await createAgentApp(client, space.spaceId, 'writer', connection, WRITER);
    const critic = await createAgentApp(client, space.spaceId, 'critic', connection, CRITIC);
    const draft = teamWorkflowDraft(
      [
        { name: 'writer', appId: writer },
        { name: 'critic', appId: critic },
      ],
      { maxTurns: 4 },
    );
    const appId = await createWorkflowApp(client, space.spaceId, 'Team flow', draft);
    await expectStatus(client.request('POST', `/apps/${appId}/releases`, {}), 201);

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
    const callsOf = (system: string) =>
      [...model.callsBySystem.entries()].filter(([key]) => key.startsWith(system)).reduce((sum, [, count]) => sum + count, 0);
    await waitUntil(async () => {
      const { body } = await client.request('GET', `/runs/${runId}/view`);
      const tasks =
        (body as { view?: { workflow?: { tasks: { taskId: string; status: string }[] } } }).view?.workflow?.tasks ?? [];
      const thirdTurnSaved = tasks.some((task) => task.taskId === '5/pair.turn' && task.status === 'succeeded');
      return thirdTurnSaved && callsOf(CRITIC) >= 2;
    }, 50);
    expect([callsOf(WRITER), callsOf(CRITIC)]).toEqual([2, 2]);
    await server.kill('SIGKILL');
    model.gate = undefined;
    model.holdWhen = undefined;
    open();

    server = startProcess('serve', environment, ['--port', '0']);
    processes.push(server);
    baseUrl = (await server.waitFor(/listening on (http:\/\/\S+) /))[1] as string;
    client = await signIn(baseUrl);
    const run = await waitForTerminal(client, runId);
    expect(run.status, JSON.stringify(run)).toBe('succeeded');
    expect(run.id).toBe(runId);
    expect(run.output).toEqual({ answer: 'critic saw 4 messages' });
    // No saved turn was redone: the writer's two calls stand, the critic re-sent only the cut one.
    expect([callsOf(WRITER), callsOf(CRITIC)]).toEqual([2, 3]);

    const events = parseSse((await client.request('GET', `/runs/${runId}/events`)).body as string).events;
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
    const rows = await client.request('GET', `/apps/${appId}/runs`);
    expect((rows.body as { runs: unknown[] }).runs).toHaveLength(1);
  });
});
