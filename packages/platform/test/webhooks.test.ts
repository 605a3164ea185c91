import { createServer, type IncomingMessage, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signWebhook, verifyWebhookSignature } from '../src/domain/webhook-signature.js';
import { createTestPlatform, dialects, seedUser, TestClient, type TestPlatform } from './harness.js';
import { waitForTerminal, waitUntil } from './run-helpers.js';
import { buildScriptedApp, CountingToolServer, listen, ScriptedModelServer } from './scripted-servers.js';

interface Received {
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
}

interface Delivery {
  id: string;
  url: string;
  state: 'waiting' | 'delivered' | 'failed';
  attempts: { at: string; status?: number; error?: string }[];
}

/**
 * A real webhook receiver: `/flaky` answers 500 to its first request and 200 after, `/down`
 * always 503, anything else 200. It keeps every request's raw body for signature checks.
 */
class WebhookReceiver {
  readonly server: Server;
  readonly received: Received[] = [];
  url = '';

  constructor() {
    this.server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const path = request.url ?? '/';
        const earlier = this.received.filter((entry) => entry.path === path).length;
        this.received.push({ path, headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
        const status = path.startsWith('/down') ? 503 : path.startsWith('/flaky') && earlier === 0 ? 500 : 200;
        response.writeHead(status).end();
      });
    });
  }

  async start(): Promise<this> {
    this.url = await listen(this.server);
    return this;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

describe('webhook signatures', () => {
  const secret = 'whsec_test-secret';
  const body = JSON.stringify({ type: 'run.finished', run: { id: 'run_1' } });
  const now = 1_800_000_000_000;

  it('verify what was signed, and refuse another secret, another body or an old signature', () => {
    const header = signWebhook(secret, body, now / 1000);
    expect(verifyWebhookSignature(secret, body, header, { now })).toBe(true);
    expect(verifyWebhookSignature('whsec_other', body, header, { now })).toBe(false);
    expect(verifyWebhookSignature(secret, `${body} `, header, { now })).toBe(false);
    expect(verifyWebhookSignature(secret, body, header, { now: now + 301_000 })).toBe(false);
    expect(verifyWebhookSignature(secret, body, header, { now: now + 301_000, toleranceSeconds: 400 })).toBe(true);
    expect(verifyWebhookSignature(secret, body, undefined)).toBe(false);
    expect(verifyWebhookSignature(secret, body, 't=abc,v1=zz', { now })).toBe(false);
  });
});

describe.each(dialects)('completion webhooks on %s', (dialect) => {
  let platform: TestPlatform;
  let owner: TestClient;
  let model: ScriptedModelServer;
  let tool: CountingToolServer;
  let receiver: WebhookReceiver;
  let appId: string;
  let secret: string;

  const deliveryOf = async (runId: string) => {
    const { status, body } = await owner.request('GET', `/runs/${runId}/webhook`);
    expect(status, JSON.stringify(body)).toBe(200);
    return (body as { delivery: Delivery }).delivery;
  };
  const settled = async (runId: string) => {
    let delivery = await deliveryOf(runId);
    await waitUntil(async () => {
      delivery = await deliveryOf(runId);
      return delivery.state !== 'waiting';
    });
    return delivery;
  };

  beforeAll(async () => {
    model = await new ScriptedModelServer().start();
    tool = await new CountingToolServer().start();
    receiver = await new WebhookReceiver().start();
    platform = await createTestPlatform(dialect, { webhookRetryMs: 50, webhookAttempts: 3 });
    await seedUser(platform, 'owner@example.com');
    owner = await new TestClient(platform).login('owner@example.com', 'correct horse battery staple');
    ({ appId } = await buildScriptedApp(owner, model.url, tool.url, `Webhooks ${dialect}`));
  });
  afterAll(async () => {
    await platform.destroy();
    await Promise.all([model.close(), tool.close(), receiver.close()]);
  });

  it('refuses a webhook before the app has a secret, or with a bad url, and records no run', async () => {
    const runsBefore = (await owner.request('GET', `/apps/${appId}/runs`)).body;
    const missing = await owner.request('POST', `/apps/${appId}/runs`, {
      input: 'say hi',
      webhook: { url: `${receiver.url}/hook` },
    });
    expect(missing.status).toBe(422);
    expect(missing.body).toMatchObject({ error: { code: 'webhook-secret-missing' } });
    for (const url of ['not a url', '/relative']) {
      const bad = await owner.request('POST', `/apps/${appId}/runs`, { input: 'say hi', webhook: { url } });
      expect(bad.status, url).toBe(400);
      expect(JSON.stringify(bad.body)).toContain('webhook.url');
    }
    // Another scheme is the egress policy's refusal (P-15.1), like every other outbound URL field.
    for (const url of ['ftp://example.com/hook', 'file:///etc/passwd', 'gopher://example.com:70/_x']) {
      const bad = await owner.request('POST', `/apps/${appId}/runs`, { input: 'say hi', webhook: { url } });
      expect(bad.status, url).toBe(422);
      expect(bad.body, url).toMatchObject({
        error: { code: 'egress-denied', details: { rule: 'scheme', field: 'webhook.url' } },
      });
    }
    expect((await owner.request('GET', `/apps/${appId}/runs`)).body).toEqual(runsBefore);
    expect((await owner.request('GET', `/apps/${appId}/webhook-secret`)).body).toEqual({ configured: false });
  });

  it('signs the finished run and tries again after a failed answer; every try is visible', async () => {
    const made = await owner.request('POST', `/apps/${appId}/webhook-secret`);
    expect(made.status).toBe(201);
    secret = (made.body as { secret: string }).secret;
    expect(secret).toMatch(/^whsec_/);
    expect((await owner.request('GET', `/apps/${appId}/webhook-secret`)).body).toEqual({ configured: true });
    expect(JSON.stringify((await owner.request('GET', `/apps/${appId}/webhook-secret`)).body)).not.toContain(secret);
    platform.startWorker();

    const started = await owner.request('POST', `/apps/${appId}/runs`, {
      input: 'please lookup the weather',
      webhook: { url: `${receiver.url}/flaky` },
    });
    expect(started.status).toBe(202);
    const { runId } = started.body as { runId: string };
    const run = await waitForTerminal(owner, runId);
    expect(run.status).toBe('succeeded');

    const delivery = await settled(runId);
    expect(delivery.state).toBe('delivered');
    expect(delivery.attempts.map((attempt) => attempt.status)).toEqual([500, 200]);
    const tries = receiver.received.filter((entry) => entry.path === '/flaky');
    expect(tries).toHaveLength(2);
    for (const entry of tries) {
      expect(entry.headers['agentloom-delivery']).toBe(delivery.id);
      expect(verifyWebhookSignature(secret, entry.body, entry.headers['agentloom-signature'] as string)).toBe(true);
      expect(verifyWebhookSignature('whsec_wrong', entry.body, entry.headers['agentloom-signature'] as string)).toBe(false);
      const payload = JSON.parse(entry.body) as {
        type: string;
        deliveryId: string;
        run: { id: string; status: string; output: string };
      };
      expect(payload).toMatchObject({ type: 'run.finished', deliveryId: delivery.id, run: { id: runId, status: 'succeeded' } });
      expect(payload.run.output).toBe(run.output);
    }
  });

  it('tells a caller about a run stopped while queued, and marks a delivery failed once its tries run out', async () => {
    const stoppedRun = await owner.request('POST', `/apps/${appId}/runs`, {
      input: 'please lookup something slow',
      webhook: { url: `${receiver.url}/stopped` },
    });
    const { runId: stoppedId } = stoppedRun.body as { runId: string };
    expect((await owner.request('POST', `/runs/${stoppedId}/stop`)).status).toBe(202);
    expect((await waitForTerminal(owner, stoppedId)).status).toBe('stopped');
    expect((await settled(stoppedId)).state).toBe('delivered');
    const told = receiver.received.find((entry) => entry.path === '/stopped');
    expect(JSON.parse(told?.body ?? '{}')).toMatchObject({ run: { id: stoppedId, status: 'stopped', stopCause: 'user' } });

    const downRun = await owner.request('POST', `/apps/${appId}/runs`, {
      input: 'say hi',
      webhook: { url: `${receiver.url}/down` },
    });
    const { runId: downId } = downRun.body as { runId: string };
    const failed = await settled(downId);
    expect(failed.state).toBe('failed');
    expect(failed.attempts.map((attempt) => attempt.status)).toEqual([503, 503, 503]);
    expect(receiver.received.filter((entry) => entry.path === '/down')).toHaveLength(3);
  });

  it('answers 404 no-webhook for a run that asked for none', async () => {
    const plain = await owner.request('POST', `/apps/${appId}/runs`, { input: 'say hi' });
    const { runId } = plain.body as { runId: string };
    const answer = await owner.request('GET', `/runs/${runId}/webhook`);
    expect(answer.status).toBe(404);
    expect(answer.body).toMatchObject({ error: { code: 'no-webhook' } });
  });
});
