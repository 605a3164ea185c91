import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestPlatform, dialects, seedUser, TestClient, type TestPlatform } from './harness.js';
import { buildRouterSpace, type RouterSpace, saveAppDraft, travelCatalog } from './router-fixture.js';

interface Turn {
  sessionId: string;
  turn: number;
  commands: { type: string; action?: { id: string }; name?: string; value?: unknown }[];
  decidedBy: string;
  trace: { layer: string; outcome?: string; reason?: string }[];
  reply: { kind: string; text: string; slot?: string };
  effects: { type: string; runId: string; appId?: string; sessionId?: string }[];
  state: {
    dialogue: { activeAction?: { id: string }; slots?: Record<string, unknown>; askedSlot?: string };
    run?: { runId: string };
  };
}

/*
 * Router apps end to end over HTTP on a real database (issue 33): a two-turn slot-filling
 * conversation starts the right agent with the slots as its input, a later message is that run's
 * supplement, a cancel stops it, chit-chat starts nothing; publish refuses targets that are not
 * published agents or workflows of the same space; other spaces and viewers are kept out. No
 * worker runs here, so a started run stays queued (active) until it is stopped.
 */
describe.each(dialects)('router apps on %s', (dialect) => {
  let platform: TestPlatform;
  let owner: TestClient;
  let viewer: TestClient;
  let outsider: TestClient;
  let space: RouterSpace;
  const say = (client: TestClient, text: string, sessionId?: string) =>
    client.request('POST', `/routers/${space.routerAppId}/messages`, { text, ...(sessionId ? { sessionId } : {}) });
  const runsOf = async (appId: string) =>
    platform.services.database.selectFrom('runs').select('id').where('app_id', '=', appId).execute();

  beforeAll(async () => {
    platform = await createTestPlatform(dialect);
    for (const name of ['owner', 'viewer', 'outsider']) await seedUser(platform, `${name}@example.com`);
    owner = await new TestClient(platform).login('owner@example.com', 'correct horse battery staple');
    viewer = await new TestClient(platform).login('viewer@example.com', 'correct horse battery staple');
    outsider = await new TestClient(platform).login('outsider@example.com', 'correct horse battery staple');
    space = await buildRouterSpace(owner, 'Travel');
    const added = await owner.request('POST', `/spaces/${space.spaceId}/members`, {
      email: 'viewer@example.com',
      role: 'viewer',
    });
    expect(added.status).toBe(201);
  });
  afterAll(() => platform.destroy());

  it('asks for the missing slot, starts the flight agent with both slots, supplements, cancels and chats', async () => {
    const first = await say(viewer, 'I want to book a flight to Paris');
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const one = first.body as Turn;
    expect(one.commands).toEqual([
      { type: 'start', action: { kind: 'agent', id: space.flightAppId } },
      { type: 'setSlot', name: 'destination', value: 'paris' },
    ]);
    expect(one.decidedBy).toBe('rules');
    expect(one.trace.map((entry) => entry.layer)).toContain('rules');
    expect(one.reply).toMatchObject({ kind: 'ask-slot', slot: 'date', text: 'Which day do you want to fly?' });
    expect(one.effects).toEqual([]);
    expect(await runsOf(space.flightAppId)).toEqual([]);

    const second = (await say(viewer, 'tomorrow', one.sessionId)).body as Turn;
    expect(second.turn).toBe(2);
    expect(second.commands).toEqual([{ type: 'setSlot', name: 'date', value: 'tomorrow' }]);
    expect(second.reply.kind).toBe('started');
    const [started] = second.effects;
    expect(started).toMatchObject({ type: 'started', appId: space.flightAppId });
    const runId = started?.runId as string;
    const history = async () =>
      (await viewer.request('GET', `/sessions/${started?.sessionId}/history`)).body as {
        runs: { runId: string; input: string | null; supplements: { text: string }[] }[];
      };
    expect((await history()).runs).toEqual([
      expect.objectContaining({ runId, input: JSON.stringify({ destination: 'paris', date: 'tomorrow' }), supplements: [] }),
    ]);
    expect((await runsOf(space.flightAppId)).map((row) => row.id)).toEqual([runId]);
    expect(await runsOf(space.weatherAppId)).toEqual([]);
    // The viewer started the run: it may follow it.
    expect((await viewer.request('GET', `/runs/${runId}`)).status).toBe(200);

    const third = (await say(viewer, 'a window seat please', one.sessionId)).body as Turn;
    expect(third.reply.kind).toBe('supplemented');
    expect(third.effects).toEqual([{ type: 'supplemented', runId }]);
    expect((await history()).runs[0]?.supplements.map((supplement) => supplement.text)).toEqual(['a window seat please']);

    const fourth = (await say(viewer, 'cancel', one.sessionId)).body as Turn;
    expect(fourth.commands).toEqual([{ type: 'cancel' }]);
    expect(fourth.reply.kind).toBe('cancelled');
    expect(fourth.effects).toEqual([{ type: 'stopped', runId }]);
    expect((await platform.services.runStore.getRun(runId))?.status).toBe('stopped');
    expect(fourth.state).toEqual({ dialogue: {} });

    const fifth = (await say(viewer, 'hello', one.sessionId)).body as Turn;
    expect(fifth.commands).toEqual([{ type: 'chitChat' }]);
    expect(fifth.reply.kind).toBe('chit-chat');
    expect(fifth.effects).toEqual([]);
    expect(await runsOf(space.flightAppId)).toHaveLength(1);
    expect(await runsOf(space.weatherAppId)).toEqual([]);

    // The transcript and the state are kept in the database: the session reads back as it went.
    const read = await viewer.request('GET', `/routers/${space.routerAppId}/sessions/${one.sessionId}`);
    expect(read.status).toBe(200);
    const session = read.body as { state: Turn['state']; turns: { text: string; result: Turn }[] };
    expect(session.turns.map((turn) => [turn.text, turn.result.reply.kind])).toEqual([
      ['I want to book a flight to Paris', 'ask-slot'],
      ['tomorrow', 'started'],
      ['a window seat please', 'supplemented'],
      ['cancel', 'cancelled'],
      ['hello', 'chit-chat'],
    ]);
    expect(session.state).toEqual({ dialogue: {} });
    expect((await owner.request('GET', `/routers/${space.routerAppId}/sessions/${one.sessionId}`)).status).toBe(404);
  });

  it('keeps a session to its starter and a router to its space', async () => {
    const { sessionId } = (await say(viewer, 'hello')).body as Turn;
    const foreign = await say(owner, 'hello', sessionId);
    expect(foreign.status).toBe(404);
    const outside = await say(outsider, 'hello');
    expect(outside.status).toBe(404);
    expect((outside.body as { error: { code: string } }).error.code).toBe('not-found');
    const tryOutside = await outsider.request('POST', `/routers/${space.routerAppId}/draft/try`, { text: 'hello' });
    expect(tryOutside.status).toBe(404);
    const edit = await saveAppDraft(viewer, space.routerAppId, travelCatalog(space.flightAppId, space.weatherAppId));
    expect(edit.status).toBe(403);
    expect((await viewer.request('POST', `/apps/${space.routerAppId}/releases`, { notes: 'x' })).status).toBe(403);
    // An agent app is no router; a router has no runs of its own.
    const notRouter = await say(owner, 'hello').then(() =>
      owner.request('POST', `/routers/${space.flightAppId}/messages`, { text: 'hello' }),
    );
    expect(notRouter.status).toBe(409);
    expect((notRouter.body as { error: { code: string } }).error.code).toBe('not-a-router');
    const run = await owner.request('POST', `/apps/${space.routerAppId}/runs`, { input: 'hello' });
    expect(run.status).toBe(422);
    expect((run.body as { error: { code: string } }).error.code).toBe('router-not-runnable');
  });

  it('tries an utterance on the draft without running anything', async () => {
    const before = (await runsOf(space.weatherAppId)).length;
    const tried = await viewer.request('POST', `/routers/${space.routerAppId}/draft/try`, { text: "what's the weather" });
    expect(tried.status, JSON.stringify(tried.body)).toBe(200);
    const body = tried.body as Turn;
    expect(body.commands).toEqual([{ type: 'start', action: { kind: 'agent', id: space.weatherAppId } }]);
    expect(body.reply.kind).toBe('started');
    expect(body.trace[0]).toMatchObject({ layer: 'rules', outcome: 'decided' });
    expect((await runsOf(space.weatherAppId)).length).toBe(before);
    const withState = await viewer.request('POST', `/routers/${space.routerAppId}/draft/try`, {
      text: '明天',
      state: { activeAction: { kind: 'agent', id: space.flightAppId }, slots: { destination: 'tokyo' }, askedSlot: 'date' },
    });
    expect((withState.body as Turn).commands).toEqual([{ type: 'setSlot', name: 'date', value: 'tomorrow' }]);
    // No rule fires on a paraphrase of an example: the similarity layer (offline embedder) decides it.
    const similar = { ...travelCatalog(space.flightAppId, space.weatherAppId), similarity: { threshold: 0.5 } };
    expect((await saveAppDraft(owner, space.routerAppId, similar)).status).toBe(200);
    const paraphrase = (
      await viewer.request('POST', `/routers/${space.routerAppId}/draft/try`, { text: 'i need a plane ticket please' })
    ).body as Turn;
    expect(paraphrase.decidedBy).toBe('similarity');
    expect(paraphrase.commands).toEqual([{ type: 'start', action: { kind: 'agent', id: space.flightAppId } }]);
    expect(paraphrase.trace.map((entry) => [entry.layer, entry.outcome])).toContainEqual(['similarity', 'decided']);
    expect(paraphrase.reply).toMatchObject({ kind: 'ask-slot', slot: 'destination' });
  });

  it('refuses to publish a router whose actions name unpublished, foreign or mistyped apps', async () => {
    const other = await buildRouterSpace(outsider, 'Elsewhere', false);
    const { app: unpublished } = (
      await owner.request('POST', `/spaces/${space.spaceId}/apps`, { kind: 'agent', mode: 'react', name: 'Draft only' })
    ).body as { app: { id: string } };
    const { app: router } = (
      await owner.request('POST', `/spaces/${space.spaceId}/apps`, { kind: 'router', name: 'Broken router' })
    ).body as { app: { id: string } };
    const empty = await owner.request('POST', `/apps/${router.id}/releases`, { notes: 'empty' });
    expect(empty.status).toBe(422);
    const catalog = travelCatalog(unpublished.id, other.weatherAppId);
    catalog.actions.push({ ...catalog.actions[1], ref: { kind: 'workflow', id: space.flightAppId } } as never);
    expect((await saveAppDraft(owner, router.id, catalog)).status).toBe(200);
    const refused = await owner.request('POST', `/apps/${router.id}/releases`, { notes: 'broken' });
    expect(refused.status).toBe(422);
    const { error } = refused.body as { error: { code: string; details: { issues: { path: string; code: string }[] } } };
    expect(error.code).toBe('draft-invalid');
    expect(error.details.issues).toEqual([
      expect.objectContaining({ path: 'actions.0.ref.id', code: 'unpublished' }),
      expect.objectContaining({ path: 'actions.1.ref.id', code: 'not-found' }),
      expect.objectContaining({ path: 'actions.2.ref.kind', code: 'kind-mismatch' }),
    ]);
    const validated = await owner.request('POST', `/apps/${router.id}/draft/validate`);
    expect((validated.body as { valid: boolean }).valid).toBe(false);
    const unpublishedRouter = await owner.request('POST', `/routers/${router.id}/messages`, { text: 'hello' });
    expect((unpublishedRouter.body as { error: { code: string } }).error.code).toBe('app-not-published');
  });
});
