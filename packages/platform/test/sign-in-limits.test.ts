import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mostAccountFailuresPerWindow, type SignInLimits } from '../src/config/index.js';
import { createPlatform } from '../src/platform.js';
import { createTestPlatform, dialects, seedUser, TestClient, type TestPlatform } from './harness.js';

const password = 'correct horse battery staple';
/**
 * Small limits so that few passwords are hashed (each check is a real scrypt): 2 free failures,
 * then 1 s doubling; within a 30 s window one account's back-off lets at most 6 failures through,
 * so the address limit is 7 (`mostAccountFailuresPerWindow`; the defaults are 14 and 100).
 */
const limits: SignInLimits = {
  accountFailures: 2,
  backoffMs: 1_000,
  maximumBackoffMs: 60_000,
  addressFailures: 7,
  addressWindowMs: 30_000,
};
const codeOf = (body: unknown) => (body as { error?: { code?: string } }).error?.code;
const limitOf = (body: unknown) => (body as { error?: { details?: { limit?: string } } }).error?.details?.limit;

describe.each(dialects)('sign-in limits on %s (P-15.3)', (dialect) => {
  let platform: TestPlatform;
  /** The platform's clock: tests move it instead of sleeping. */
  let clock = Date.parse('2030-01-01T00:00:00Z');
  const now = () => new Date(clock);
  const signIn = (from: string, email: string, secret: string, headers: Record<string, string> = {}) =>
    new TestClient(platform, from).request('POST', '/auth/login', { email, password: secret }, headers);

  beforeAll(async () => {
    platform = await createTestPlatform(dialect, { signInLimits: limits, trustedProxies: ['10.0.0.1'] }, { now });
    for (const name of ['alice', 'bob', 'carol', 'dave', 'erin', 'frank']) await seedUser(platform, `${name}@example.com`);
  });
  afterAll(() => platform.destroy());

  it('200 wrong passwords for one account from one address never stop a second account signing in there; the right password works after the back-off', async () => {
    const attacker = '203.0.113.7';
    const answers: number[] = [];
    for (let attempt = 0; attempt < 200; attempt += 1) {
      const response = await signIn(attacker, 'alice@example.com', `guess-${attempt}`);
      answers.push(response.status);
      if (response.status === 429) {
        expect([codeOf(response.body), limitOf(response.body)]).toEqual(['too-many-attempts', 'account']);
        expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
      }
      if (attempt === 100) expect((await signIn(attacker, 'bob@example.com', password)).status).toBe(200);
      clock += 100;
    }
    // Only a few guesses were checked: the back-off (1 s, 2 s, 4 s … over these 20 s) refused the rest unchecked.
    const checked = answers.filter((status) => status === 401).length;
    expect(checked).toBe(mostAccountFailuresPerWindow(limits));
    expect(checked).toBeLessThan(limits.addressFailures);
    expect(answers.filter((status) => status === 429).length).toBe(200 - checked);
    // A second account still signs in from the same address (the old limiter locked it out after 5).
    expect((await signIn(attacker, 'carol@example.com', password)).status).toBe(200);

    const held = await signIn('192.0.2.10', 'alice@example.com', password);
    expect([held.status, limitOf(held.body)]).toEqual([429, 'account']);
    clock += Number(held.headers.get('retry-after')) * 1000;
    const owner = await signIn('192.0.2.10', 'alice@example.com', password);
    expect(owner.status, JSON.stringify(owner.body)).toBe(200);
    // The success cleared the account's failures: one more wrong password is an ordinary 401.
    expect((await signIn(attacker, 'alice@example.com', 'wrong again')).status).toBe(401);
  });

  it('stops password spraying per address, lets accounts that signed in from there before through, and a success never clears the count', async () => {
    const sprayer = '198.51.100.9';
    expect((await signIn(sprayer, 'bob@example.com', password)).status).toBe(200);
    const sprayed = await Promise.all(
      Array.from({ length: limits.addressFailures }, (_, index) => signIn(sprayer, `user${index}@example.com`, 'Summer2030!')),
    );
    expect(sprayed.map((response) => response.status)).toEqual(Array(limits.addressFailures).fill(401));
    const spray = await signIn(sprayer, 'nobody@example.com', 'Summer2030!');
    expect([spray.status, limitOf(spray.body)]).toEqual([429, 'address']);
    const stranger = await signIn(sprayer, 'dave@example.com', password);
    expect([stranger.status, limitOf(stranger.body)]).toEqual([429, 'address']);
    // bob signed in from this address before: the sprayer cannot lock him out of it.
    expect((await signIn(sprayer, 'bob@example.com', password)).status).toBe(200);
    expect(limitOf((await signIn(sprayer, 'another@example.com', 'x')).body)).toBe('address');
    // Another address is not affected, and the window passes.
    expect((await signIn('192.0.2.20', 'erin@example.com', password)).status).toBe(200);
    clock += limits.addressWindowMs;
    expect((await signIn(sprayer, 'dave@example.com', password)).status).toBe(200);
  });

  it('shares the limits between API nodes through the database', async () => {
    const second = await createPlatform({ config: platform.services.config, now, logDestination: { write: () => {} } });
    try {
      for (let attempt = 0; attempt < limits.accountFailures; attempt += 1) {
        expect((await signIn('192.0.2.30', 'frank@example.com', 'wrong')).status).toBe(401);
      }
      const onSecond = await new TestClient(second, '192.0.2.31').request('POST', '/auth/login', {
        email: 'frank@example.com',
        password,
      });
      expect([onSecond.status, limitOf(onSecond.body)]).toEqual([429, 'account']);
    } finally {
      await second.close();
    }
  });

  it('believes X-Forwarded-For and X-Forwarded-Proto only from a trusted proxy, and marks the cookie Secure behind HTTPS', async () => {
    const forwarded = { 'x-forwarded-for': '192.0.2.44', 'x-forwarded-proto': 'https' };
    const direct = await signIn('203.0.113.50', 'erin@example.com', password, forwarded);
    expect(direct.status).toBe(200);
    expect(direct.headers.get('set-cookie')).not.toMatch(/;\s*Secure/i);
    expect(direct.headers.get('strict-transport-security')).toBeNull();
    const proxied = await signIn('10.0.0.1', 'erin@example.com', password, forwarded);
    expect(proxied.status).toBe(200);
    expect(proxied.headers.get('set-cookie')).toMatch(/;\s*Secure/i);
    expect(proxied.headers.get('strict-transport-security')).toBe('max-age=31536000');
    const sessions = await platform.services.database
      .selectFrom('web_sessions')
      .innerJoin('users', 'users.id', 'web_sessions.user_id')
      .select('web_sessions.ip')
      .where('users.email', '=', 'erin@example.com')
      .orderBy('web_sessions.created_at')
      .execute();
    expect(sessions.slice(-2).map((session) => session.ip)).toEqual(['203.0.113.50', '192.0.2.44']);
    // An IPv4 peer seen by a dual-stack listener is the same client as its plain form.
    clock += 1000;
    expect((await signIn('::ffff:203.0.113.50', 'erin@example.com', password)).status).toBe(200);
    const latest = await platform.services.database
      .selectFrom('web_sessions')
      .select('ip')
      .orderBy('created_at', 'desc')
      .executeTakeFirst();
    expect(latest?.ip).toBe('203.0.113.50');

    // A sprayer that forges X-Forwarded-For through no trusted proxy is still counted by its own address.
    const forger = '203.0.113.66';
    const forgeries = await Promise.all(
      Array.from({ length: limits.addressFailures }, (_, index) =>
        signIn(forger, `forged${index}@example.com`, 'x', { 'x-forwarded-for': `100.64.${index}.1` }),
      ),
    );
    expect(forgeries.map((response) => response.status)).toEqual(Array(limits.addressFailures).fill(401));
    const forged = await signIn(forger, 'dave@example.com', password, { 'x-forwarded-for': '100.64.99.1' });
    expect([forged.status, limitOf(forged.body)]).toEqual([429, 'address']);
    const counted = await platform.services.database
      .selectFrom('sign_in_limits')
      .select('key')
      .where('key', 'like', 'address:100.64.%')
      .execute();
    expect(counted).toEqual([]);

    // Behind the trusted proxy, each client address has its own count.
    await Promise.all(
      Array.from({ length: limits.addressFailures }, (_, index) =>
        signIn('10.0.0.1', `proxied${index}@example.com`, 'x', { 'x-forwarded-for': '192.0.2.66' }),
      ),
    );
    const blocked = await signIn('10.0.0.1', 'dave@example.com', password, { 'x-forwarded-for': '192.0.2.66' });
    expect(limitOf(blocked.body)).toBe('address');
    expect((await signIn('10.0.0.1', 'dave@example.com', password, { 'x-forwarded-for': '192.0.2.77' })).status).toBe(200);
  });
});

describe('the client address over a real socket', () => {
  it('reads the TCP peer as @hono/node-server passes it, and trusts X-Forwarded-Proto from a trusted loopback proxy only', async () => {
    const trusting = await createTestPlatform('sqlite', { trustedProxies: ['loopback'] });
    const untrusting = await createTestPlatform('sqlite', { trustedProxies: [] });
    const servers = [trusting, untrusting].map((platform) =>
      serve({ fetch: platform.app.fetch, port: 0, hostname: '127.0.0.1' }),
    );
    try {
      await Promise.all(
        servers.map((server) => new Promise((resolve) => (server.listening ? resolve(null) : server.once('listening', resolve)))),
      );
      const answers = [];
      for (const [index, platform] of [trusting, untrusting].entries()) {
        await seedUser(platform, 'ann@example.com');
        const { port } = (servers[index] as (typeof servers)[number]).address() as AddressInfo;
        const response = await fetch(`http://127.0.0.1:${port}/api/v1/auth/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-forwarded-proto': 'https', 'x-forwarded-for': '192.0.2.99' },
          body: JSON.stringify({ email: 'ann@example.com', password }),
        });
        const session = await platform.services.database.selectFrom('web_sessions').select('ip').executeTakeFirst();
        answers.push({
          status: response.status,
          secure: /;\s*Secure/i.test(response.headers.get('set-cookie') ?? ''),
          ip: session?.ip,
        });
      }
      expect(answers).toEqual([
        { status: 200, secure: true, ip: '192.0.2.99' },
        { status: 200, secure: false, ip: '127.0.0.1' },
      ]);
    } finally {
      await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
      await trusting.destroy();
      await untrusting.destroy();
    }
  });
});

describe('AGENTLOOM_COOKIE_SECURE', () => {
  const platforms: TestPlatform[] = [];
  afterAll(() => Promise.all(platforms.map((platform) => platform.destroy())));

  it.each([
    [true, { http: true, https: true }],
    [false, { http: false, https: false }],
    ['auto', { http: false, https: true }],
  ] as const)('cookieSecure %s', async (setting, expected) => {
    const platform = await createTestPlatform('sqlite', { cookieSecure: setting, trustedProxies: ['loopback'] });
    platforms.push(platform);
    await seedUser(platform, 'ann@example.com');
    const secureOver = async (forwardedProto: string) => {
      const response = await new TestClient(platform, '127.0.0.1').request(
        'POST',
        '/auth/login',
        { email: 'ann@example.com', password },
        { 'x-forwarded-proto': forwardedProto },
      );
      expect(response.status).toBe(200);
      return /;\s*Secure/i.test(response.headers.get('set-cookie') ?? '');
    };
    expect({ http: await secureOver('http'), https: await secureOver('https') }).toEqual(expected);
  });
});
