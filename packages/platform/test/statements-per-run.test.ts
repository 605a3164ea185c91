import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installQueryCounter, recordStatements } from '../../../test/support/query-counter.js';
import { createTestPlatform, dialects, seedUser, TestClient, type TestPlatform } from './harness.js';
import { parseSse, untilQuiet } from './run-helpers.js';
import { buildScriptedApp, CountingToolServer, ScriptedModelServer } from './scripted-servers.js';

installQueryCounter();

/**
 * The statements of one whole run (issue 34: round trips are most of the platform's cost per
 * run on PostgreSQL): its POST, its SSE stream to the end, the worker's claim, start, two model
 * loops with a tool call, and the job's completion, API and worker in this one process. Counts,
 * never times: each bound is what the run makes now plus a small margin for the wake-ups whose
 * number depends on timing (a claim, a follower's read), so that an added round trip per run on
 * a hot path shows.
 */
describe.each(dialects)('statements per run on %s', (dialect) => {
  let platform: TestPlatform;
  let owner: TestClient;
  let model: ScriptedModelServer;
  let tool: CountingToolServer;
  let appId: string;
  let question = 0;
  let stopWorker: (() => Promise<void>) | undefined;

  let keyClient: TestClient;

  /** One run through the HTTP API, submitted and streamed to its end; answers the statements it made. */
  const oneRun = async (client: TestClient = owner): Promise<string[]> => {
    await untilQuiet();
    const stop = recordStatements();
    question += 1;
    const queued = await client.request('POST', `/apps/${appId}/runs`, { input: `say hi #${question}` });
    expect(queued.status).toBe(202);
    const { runId } = queued.body as { runId: string };
    const stream = await client.request('GET', `/runs/${runId}/events`);
    expect(parseSse(stream.body as string).events.at(-1)?.event).toBe('run-finish');
    await untilQuiet();
    return stop();
  };

  beforeAll(async () => {
    model = await new ScriptedModelServer().start();
    tool = await new CountingToolServer().start();
    platform = await createTestPlatform(dialect);
    await seedUser(platform, 'owner@example.com');
    owner = await new TestClient(platform).login('owner@example.com', 'correct horse battery staple');
    const built = await buildScriptedApp(owner, model.url, tool.url, 'Statements');
    appId = built.appId;
    const key = await owner.request('POST', `/spaces/${built.spaceId}/api-keys`, { name: 'statements' });
    keyClient = TestClient.withApiKey(platform, (key.body as { secret: string }).secret);
    // No idle poll: the worker claims when a run is announced (what a run costs, not what idling costs).
    const worker = platform.startWorker({ idlePollMs: 600_000 });
    stopWorker = () => worker.stop();
    // The first run builds the release and opens what later runs reuse.
    await oneRun();
  }, 90_000); // migrations, a published app and a first run waited to quiet: over 30 s on a busy machine
  afterAll(async () => {
    await stopWorker?.();
    await platform?.destroy();
    await model?.close();
    await tool?.close();
  });

  /**
   * The platform's periodic loops, which run on their own clocks whatever the runs do: the
   * outbox deliverers' claims, the worker's heartbeat, the sweeper's passes (expired leases,
   * runs listed by status and their jobs, run directories, app deletions), and the lease
   * renewals (the SDK's and the job's, every third of the lease however long the run takes).
   */
  const periodic = [
    /set locked_by = /i,
    /"workers"/i,
    /started_on \+ expire_in < now\(\)/i,
    /^LISTEN /,
    /ORDER BY created_at DESC, run_id DESC LIMIT/,
    /data->>'runId'/i,
    /"app_deletions"/i,
    /select "id", "file_root" from "apps"/i,
    /SET lease_expires_at = /,
    /set expire_in = \(now\(\) - started_on\)/,
    /^update "run_jobs" set "lease_until" = /,
  ];

  it('a run makes a bounded number of statements; its routes read no space and its job completes in one statement', async () => {
    const statements = (await oneRun()).filter((text) => !periodic.some((pattern) => pattern.test(text.trim())));
    console.log(`statements of one run on ${dialect}: ${statements.length}`);
    const bound = dialect === 'postgres' ? 38 : 60;
    const firstLines = statements.map((text) => text.trim().split('\n')[0]);
    expect(statements.length, firstLines.join('\n')).toBeLessThanOrEqual(bound);
    // An app's and a run's routes find the space through the app (apps.space_id references it).
    expect(statements.filter((text) => /from "spaces"/i.test(text))).toEqual([]);
    // The run and its app are read together by the run's route and the worker's start: the
    // POST alone reads the app by itself.
    expect(statements.filter((text) => /^select "id", "space_id",.* from "apps" where "id"/is.test(text.trim()))).toHaveLength(1);
    // A run without a webhook ends without nudging a delivery it does not have.
    expect(statements.filter((text) => /update "webhook_deliveries"/i.test(text))).toEqual([]);
    if (dialect === 'postgres') {
      const jobStatements = statements.filter((text) => /completed_on = now\(\)/i.test(text));
      expect(jobStatements).toHaveLength(1);
      // On the queue's own partition (no partition to prune by name: one plan per connection).
      expect(jobStatements[0]).not.toMatch(/name = \$1/);
      // The hot statements of the SDK's store and pg-boss's fetch are prepared (named) statements.
      const unnamed = (pattern: RegExp) =>
        statements.filter((text) => pattern.test(text) && !text.includes('/* named ')).map((text) => text.slice(0, 80));
      expect(unnamed(/^\s*WITH next as/i)).toEqual([]);
      expect(unnamed(/agentloom_(runs|journal)/)).toEqual([]);
      // So are the platform's compiled queries that name their columns: the run read with its app.
      expect(unnamed(/from "runs" inner join "apps"/)).toEqual([]);
      // And the dispatcher's statements on pg-boss's jobs: its insert, the claim's lease, the completion.
      expect(unnamed(/INSERT INTO \S+\.job \(/)).toEqual([]);
      expect(unnamed(/completed_on = now\(\)/)).toEqual([]);
      expect(statements.filter((text) => /INSERT INTO \S+\.job \(/.test(text))).toHaveLength(1);
      expect(statements.filter((text) => /^\s*WITH next as/i.test(text)).length).toBeGreaterThan(0);
      // The worker's start pins the release (D-P5) in its read of the run: no UPDATE of its own,
      // and no read of the SDK's run before taking it (it must exist: one conditional UPDATE).
      expect(statements.filter((text) => /^update "runs" set "release_id"/i.test(text.trim()))).toEqual([]);
      expect(statements.filter((text) => /^with pinned as \(/i.test(text.trim()))).toHaveLength(1);
      expect(unnamed(/^with pinned as \(/i)).toEqual([]);
      expect(statements.filter((text) => /FOR UPDATE\) AS locked/.test(text))).toEqual([]);
      // A new session's insert checks and locks its app (NOT-21): no read of the app's state before it.
      expect(statements.filter((text) => /^select "state" from "apps"/i.test(text.trim()))).toEqual([]);
      expect(
        statements.filter((text) =>
          /^with "session" as \(insert into "sessions" .* from "apps" .* for share.*insert into "runs"/is.test(text.trim()),
        ),
      ).toHaveLength(1);
      // A new session's first run is inserted with it, and the job's wake-up rides on its insert.
      expect(statements.filter((text) => /^insert into "runs"/i.test(text.trim()))).toEqual([]);
      expect(statements.filter((text) => /pg_notify/.test(text) && /INSERT INTO \S+\.job \(/.test(text))).toHaveLength(1);
      expect(statements.filter((text) => /^select pg_notify\(\$1, \$2\)$/.test(text.trim()))).toEqual([]);
      // No lock of the claim's job row first (the fenced UPDATE is the check).
      expect(statements.filter((text) => /select id from .*job where name = \$1 and id = \$2::uuid/is.test(text))).toEqual([]);
    }
  });

  it("with an API key, the POST's app and the stream's run come with the key's read", async () => {
    const statements = (await oneRun(keyClient)).filter((text) => !periodic.some((pattern) => pattern.test(text.trim())));
    const ofKey = statements.filter((text) => /from "api_keys"/i.test(text));
    expect(ofKey).toHaveLength(2);
    expect(ofKey.filter((text) => /left join "apps" on "apps"\."id" = (\$\d|\?)/i.test(text))).toHaveLength(1);
    expect(ofKey.filter((text) => /left join "runs" on "runs"\."id" = /i.test(text))).toHaveLength(1);
    // No read of the app by itself, and the run with its app only at the worker's start (SQLite).
    expect(statements.filter((text) => /^select "id", "space_id",.* from "apps" where "id"/is.test(text.trim()))).toEqual([]);
    expect(statements.filter((text) => /from "runs" inner join "apps"/i.test(text))).toHaveLength(dialect === 'postgres' ? 0 : 1);
  });
});
