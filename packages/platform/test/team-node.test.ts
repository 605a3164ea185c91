/**
 * A workflow's team node through the platform (issue 31 part 7, N-12): two published agent apps
 * on the offline demo model are the members of a group chat; the workflow is published (its
 * members pinned to their releases) and run over HTTP by a worker on a real SQLite file (and on
 * PostgreSQL when one answers); the run's
 * events carry the team's turns and its ending, and its output is the answer of the member that
 * spoke last. Publishing refuses a team whose member is not a published agent app of the space,
 * or a team node whose team is not bound, with typed issues at their paths.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunWorker } from '../src/worker/index.js';
import { createTestPlatform, dialects, seedUser, TestClient, type TestPlatform } from './harness.js';
import { parseSse, waitForTerminal } from './run-helpers.js';
import { createAgentApp, createDemoSpace, createWorkflowApp, teamWorkflowDraft } from './team-fixture.js';
import { expectStatus } from './workflow-fixture.js';

describe.each(dialects)('a workflow with a team node on %s', (dialect) => {
  let platform: TestPlatform;
  let owner: TestClient;
  let worker: RunWorker;
  let space: { spaceId: string; connectionId: string };
  let writer: string;
  let critic: string;

  beforeAll(async () => {
    platform = await createTestPlatform(dialect);
    await seedUser(platform, 'owner@example.com');
    owner = await new TestClient(platform).login('owner@example.com', 'correct horse battery staple');
    space = await createDemoSpace(owner, 'Teams');
    const model = { connectionId: space.connectionId, modelId: 'offline-demo-1' };
    writer = await createAgentApp(owner, space.spaceId, 'writer', model, 'You write short explanations.');
    critic = await createAgentApp(owner, space.spaceId, 'critic', model, 'You review what the writer wrote.');
    worker = platform.startWorker();
  });
  afterAll(async () => {
    await worker?.stop();
    await platform?.destroy();
  });

  it('publishes the team with its members pinned, runs it over HTTP and reports its turns as events', async () => {
    const members = [
      { name: 'writer', appId: writer },
      { name: 'critic', appId: critic },
    ];
    const appId = await createWorkflowApp(owner, space.spaceId, 'Team flow', teamWorkflowDraft(members, { maxTurns: 3 }));
    const { release } = await expectStatus<{
      release: { snapshot: { teams: Record<string, { members: { name: string; appId: string; version: number }[] }> } };
    }>(owner.request('POST', `/apps/${appId}/releases`, {}), 201);
    expect(release.snapshot.teams.pair?.members.map((member) => `${member.name} ${member.appId} v${member.version}`)).toEqual([
      `writer ${writer} v1`,
      `critic ${critic} v1`,
    ]);

    const { runId } = await expectStatus<{ runId: string }>(
      owner.request('POST', `/apps/${appId}/runs`, { input: { question: 'Explain the tides.' } }),
      202,
    );
    const run = await waitForTerminal(owner, runId);
    expect(run.status, JSON.stringify(run)).toBe('succeeded');
    // The last speaker's answer: the writer, whose last user message is the critic's (no rule: the fallback).
    expect(run.output).toEqual({ answer: 'Nothing to add.' });

    const events = parseSse((await owner.request('GET', `/runs/${runId}/events`)).body as string).events;
    const turns = events.flatMap((event) =>
      event.event === 'team-turn' ? [event.data as { turn: number; speaker: string; text: string; node: string }] : [],
    );
    expect(turns.map((turn) => `${turn.turn} ${turn.speaker} ${turn.node}: ${turn.text}`)).toEqual([
      '1 writer pair.turn: Writer: tides follow the moon. Please review.',
      '2 critic pair.turn: Critic: the draft is clear; ship it.',
      '3 writer pair.turn: Nothing to add.',
    ]);
    const selected = events.filter((event) => event.event === 'speaker-selected').map((event) => event.data);
    expect(selected.map((data) => (data as { speaker: string }).speaker)).toEqual(['writer', 'critic', 'writer']);
    const stop = events.find((event) => event.event === 'team-stop')?.data as { reason: string; turn: number };
    expect(stop).toMatchObject({ reason: 'max-turns', turn: 3 });
    expect(events.at(-1)?.event).toBe('workflow-finish');

    // The team's steps are tasks of the one workflow run (NOT-24: one run row).
    const { view } = await expectStatus<{ view: { workflow: { tasks: { taskId: string; status: string }[] } } }>(
      owner.request('GET', `/runs/${runId}/view`),
      200,
    );
    expect(view.workflow.tasks.map((task) => task.taskId)).toEqual([
      '0/pair',
      '1/pair.turn',
      '2/pair',
      '3/pair.turn',
      '4/pair',
      '5/pair.turn',
      '6/pair',
      '7/pair.done',
    ]);
    const rows = await owner.request('GET', `/apps/${appId}/runs`);
    expect((rows.body as { runs: unknown[] }).runs).toHaveLength(1);
  });

  it('refuses to publish a team with an unpublished member or an unbound team, with typed issues', async () => {
    const model = { connectionId: space.connectionId, modelId: 'offline-demo-1' };
    const draftOnly = await createAgentApp(owner, space.spaceId, 'draft-only', model, 'Not published.', false);
    const draft = teamWorkflowDraft([
      { name: 'writer', appId: writer },
      { name: 'writer', appId: draftOnly },
    ]);
    draft.bindings.teams.pair.topology = { kind: 'handoff', entry: 'nobody', handoffs: {} };
    const appId = await createWorkflowApp(owner, space.spaceId, 'Broken team', draft);
    const refused = await owner.request('POST', `/apps/${appId}/releases`, {});
    expect(refused.status).toBe(422);
    const body = refused.body as { error: { code: string; details: { issues: { path: string; code: string }[] } } };
    expect(body.error.code).toBe('draft-invalid');
    expect(body.error.details.issues.map((issue) => `${issue.path} ${issue.code}`)).toEqual(
      expect.arrayContaining([
        'bindings.teams.pair.members.1.name duplicate-member',
        'bindings.teams.pair.members.1.appId unpublished',
      ]),
    );

    const unbound = teamWorkflowDraft([{ name: 'writer', appId: writer }]);
    unbound.definition.nodes[0] = { ...unbound.definition.nodes[0], team: 'ghost' } as (typeof unbound.definition.nodes)[0];
    const unboundApp = await createWorkflowApp(owner, space.spaceId, 'Unbound team', unbound);
    const validation = await expectStatus<{ valid: boolean; issues: { path: string; code: string }[] }>(
      owner.request('POST', `/apps/${unboundApp}/draft/validate`),
      200,
    );
    expect(validation.valid).toBe(false);
    expect(validation.issues.map((issue) => `${issue.path} ${issue.code}`)).toEqual(['definition.nodes.0.team unbound']);

    // A topology naming a member that does not exist is refused by the publish's dry run.
    const wrongEntry = teamWorkflowDraft([{ name: 'writer', appId: writer }], {
      topology: { kind: 'handoff', entry: 'nobody', handoffs: {} },
    });
    const wrongApp = await createWorkflowApp(owner, space.spaceId, 'Wrong entry', wrongEntry);
    const dryRun = await owner.request('POST', `/apps/${wrongApp}/releases`, {});
    expect(dryRun.status).toBe(422);
    const issues = (dryRun.body as { error: { details: { issues: { path: string; code: string }[] } } }).error.details.issues;
    expect(issues.length).toBeGreaterThan(0);
    expect(issues.every((issue) => issue.path.startsWith('bindings.teams.pair') && issue.code === 'invalid-definition')).toBe(
      true,
    );
  });
});
