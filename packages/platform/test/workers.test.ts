import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunWorker } from '../src/worker/run-worker.js';
import { createTestPlatform, dialects, seedUser, TestClient, type TestPlatform } from './harness.js';

interface WorkerView {
  id: string;
  host: string;
  version: string;
  capabilities: { isolation: boolean };
  maxConcurrentRuns: number;
  runs: number;
  state: string;
  heartbeatAt: string;
  startedAt: string;
}

/**
 * The `workers` table and `/admin/workers` (PLATFORM.md §4.3, §4.4): a worker registers with its
 * capabilities, heartbeats, is drained by an instance administrator (seen at its next heartbeat)
 * and ends `gone`; everyone else is refused. The hand-over of live runs is checked with real
 * processes in `worker-drain.int.test.ts`.
 */
describe.each(dialects)('workers on %s', (dialect) => {
  let platform: TestPlatform;
  let admin: TestClient;
  let member: TestClient;
  let worker: RunWorker;

  beforeAll(async () => {
    platform = await createTestPlatform(dialect);
    await seedUser(platform, 'root@example.com', { admin: true });
    await seedUser(platform, 'member@example.com');
    admin = await new TestClient(platform).login('root@example.com', 'correct horse battery staple');
    member = await new TestClient(platform).login('member@example.com', 'correct horse battery staple');
    worker = platform.startWorker({ heartbeatMs: 50, concurrency: 7, capabilities: { isolation: false } });
  });
  afterAll(() => platform.destroy());

  // Polls yield to timers: SQLite answers synchronously, and a loop of resolved promises would
  // never let the worker's heartbeat timer run.
  const pause = () => new Promise((resolve) => setTimeout(resolve, 20));
  const list = async () => {
    await pause();
    const response = await admin.request('GET', '/admin/workers');
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    return (response.body as { workers: WorkerView[] }).workers;
  };

  it('registers a started worker with its capabilities and heartbeats it', async () => {
    let found: WorkerView | undefined;
    while (!found) found = (await list()).find((item) => item.id === worker.id);
    expect(found).toMatchObject({ state: 'active', capabilities: { isolation: false }, maxConcurrentRuns: 7, runs: 0 });
    expect(found.version).toMatch(/^\d+\.\d+\.\d+/);
    const first = found.heartbeatAt;
    let later = first;
    while (later === first) later = (await list()).find((item) => item.id === worker.id)?.heartbeatAt ?? first;
    expect(Date.parse(later)).toBeGreaterThan(Date.parse(first));
  });

  it('lets only instance administrators see and drain workers', async () => {
    expect((await member.request('GET', '/admin/workers')).status).toBe(403);
    const refused = await member.request('POST', `/admin/workers/${worker.id}/drain`);
    expect(refused.status).toBe(403);
    expect((await list()).find((item) => item.id === worker.id)?.state).toBe('active');
    expect((await new TestClient(platform).request('GET', '/admin/workers')).status).toBe(401);
    const missing = await admin.request('POST', '/admin/workers/worker_nobody/drain');
    expect(missing.status).toBe(404);
    expect((missing.body as { error: { code: string } }).error.code).toBe('not-found');
  });

  it('drains a worker at its next heartbeat: it stops and ends gone; draining it again is a 409', async () => {
    const response = await admin.request('POST', `/admin/workers/${worker.id}/drain`);
    expect(response.status, JSON.stringify(response.body)).toBe(202);
    expect((response.body as { worker: WorkerView }).worker.state).toBe('draining');
    await worker.drained;
    expect((await list()).find((item) => item.id === worker.id)?.state).toBe('gone');
    const again = await admin.request('POST', `/admin/workers/${worker.id}/drain`);
    expect(again.status).toBe(409);
    expect((again.body as { error: { code: string } }).error.code).toBe('worker-gone');
  });

  it('marks a worker gone when the platform stops it', async () => {
    const other = platform.startWorker({ heartbeatMs: 50, capabilities: { isolation: true } });
    let found: WorkerView | undefined;
    while (!found) found = (await list()).find((item) => item.id === other.id);
    expect(found).toMatchObject({ state: 'active', capabilities: { isolation: true } });
    await other.stop();
    expect((await list()).find((item) => item.id === other.id)?.state).toBe('gone');
  });
});
