/**
 * The outbound module on its own (P-15.1): address classes in every spelling, the allow list and
 * its start-up errors, the platform's own address, the bounds on every call (redirects, size),
 * what a cross-origin redirect keeps of the request, and the address a connection really uses.
 * Real loopback listeners count what reaches them.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  classifyAddress,
  createOutbound,
  EgressDeniedError,
  EgressPolicy,
  OutboundLimitError,
  parseAddress,
  parseOutboundAllow,
  readBoundedText,
} from '../src/adapters/outbound/index.js';
import { ConfigurationProblemError, loadConfig } from '../src/config/index.js';
import { countConnections, testResolver } from './egress-fixture.js';

/** A listener on 127.0.0.1 that records the headers of each request; `/loop` redirects to itself, `/to?url=` elsewhere. */
let server: Server;
let port = 0;
let connections: () => number;
const received: { path: string; headers: IncomingHttpHeaders }[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://x');
    received.push({ path: url.pathname, headers: request.headers });
    if (url.pathname === '/loop') response.writeHead(302, { location: '/loop' }).end();
    else if (url.pathname === '/to') response.writeHead(307, { location: url.searchParams.get('url') ?? '/' }).end();
    else if (url.pathname === '/large') response.end('x'.repeat(10_000));
    else response.end('hello');
  });
  connections = countConnections(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const allow = (text: string, allowPrivate = false) => ({ allow: parseOutboundAllow(text).entries, allowPrivate });

describe('address classes (every spelling judged as the address it is)', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['::1', 'loopback'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::127.0.0.1', 'loopback'],
    ['169.254.169.254', 'cloud-metadata'],
    ['fd00:ec2::254', 'cloud-metadata'],
    ['::ffff:169.254.169.254', 'cloud-metadata'],
    ['169.254.1.1', 'link-local'],
    ['fe80::1', 'link-local'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['192.168.1.1', 'private'],
    ['fd12:3456::1', 'private'],
    ['100.64.0.1', 'carrier-grade-nat'],
    ['0.0.0.0', 'unspecified'],
    ['::', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'multicast'],
    ['ff02::1', 'multicast'],
    ['192.0.2.1', 'special-purpose'],
    ['64:ff9b::7f00:1', 'special-purpose'],
    ['2002:7f00:1::', 'special-purpose'],
    ['93.184.216.34', 'public'],
    ['2606:4700::1111', 'public'],
  ])('%s is %s', (text, expected) => {
    expect(classifyAddress(parseAddress(text) as NonNullable<ReturnType<typeof parseAddress>>)).toBe(expected);
  });

  it('URL spellings of loopback (decimal, octal, hex, short, mapped) are refused at the field', () => {
    const policy = new EgressPolicy(allow(''));
    for (const url of [
      'http://2130706433/',
      'http://0177.0.0.1/',
      'http://0x7f.0.0.1/',
      'http://0x7f000001/',
      'http://127.1/',
      'http://[::ffff:127.0.0.1]/',
      'http://[0:0:0:0:0:0:0:1]/',
      'http://LOCALHOST./',
      'http://api.localhost/',
    ])
      expect(policy.checkUrl(url)?.rule, url).toBe('loopback');
    expect(policy.checkUrl('https://example.com/')).toBeUndefined();
    expect(policy.checkUrl('gopher://example.com/')?.rule).toBe('scheme');
  });
});

describe('the allow list (AGENTLOOM_OUTBOUND_ALLOW)', () => {
  it('takes hosts, host:port, [IPv6]:port and CIDR ranges, normalised', () => {
    expect(parseOutboundAllow(' 127.0.0.1:3001 , 10.0.0.0/8,MCP.Internal, [::1]:8080, ::1, 2130706433 ,').entries).toEqual([
      { kind: 'address', address: '127.0.0.1', port: 3001 },
      { kind: 'range', range: '10.0.0.0/8' },
      { kind: 'host', host: 'mcp.internal' },
      { kind: 'address', address: '::1', port: 8080 },
      { kind: 'address', address: '::1' },
      { kind: 'address', address: '127.0.0.1' },
    ]);
  });

  it('refuses the platform to start on a bad entry, naming each, and on a bad AGENTLOOM_OUTBOUND_ALLOW_PRIVATE', () => {
    let thrown: unknown;
    try {
      loadConfig({
        AGENTLOOM_SECRET_KEY: 'outbound-config-test-key-0123456789abcdef',
        AGENTLOOM_OUTBOUND_ALLOW: '127.0.0.1:99999,10.0.0.0/33,two words,http://x.test/,ok.test',
        AGENTLOOM_OUTBOUND_ALLOW_PRIVATE: 'yes',
      });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ConfigurationProblemError);
    const problems = (thrown as ConfigurationProblemError).problems;
    for (const entry of ['127.0.0.1:99999', '10.0.0.0/33', 'two words', 'http://x.test/'])
      expect(
        problems.some((problem) => problem.includes(`"${entry}"`)),
        entry,
      ).toBe(true);
    expect(problems).toContain('AGENTLOOM_OUTBOUND_ALLOW_PRIVATE "yes" must be true or false.');
    expect(problems.some((problem) => problem.includes('ok.test'))).toBe(false);
  });

  it('an entry with a port allows exactly that port; without, every port; a range every address in it', () => {
    const policy = new EgressPolicy(allow('127.0.0.1:3001,mcp.internal,10.0.0.0/8'));
    const address = (text: string) => parseAddress(text) as NonNullable<ReturnType<typeof parseAddress>>;
    expect(policy.check({ hostname: '127.0.0.1', port: 3001, address: address('127.0.0.1') })).toBeUndefined();
    expect(policy.check({ hostname: '127.0.0.1', port: 3002, address: address('127.0.0.1') })?.rule).toBe('loopback');
    expect(policy.check({ hostname: 'mcp.internal', port: 8080, address: address('192.168.0.5') })).toBeUndefined();
    expect(policy.check({ hostname: 'other.internal', port: 8080, address: address('192.168.0.5') })?.rule).toBe('private');
    expect(policy.check({ hostname: 'x', port: 80, address: address('10.9.9.9') })).toBeUndefined();
    expect(policy.check({ hostname: 'x', port: 80, address: address('::ffff:10.9.9.9') })).toBeUndefined();
  });

  it('AGENTLOOM_OUTBOUND_ALLOW_PRIVATE lifts private classes, never the metadata services nor the platform itself', () => {
    const policy = new EgressPolicy(allow('', true), { host: '0.0.0.0', port: 3000 });
    for (const url of ['http://127.0.0.1:3001/', 'http://10.0.0.1/', 'http://[fd00::5]/', 'http://169.254.1.1/'])
      expect(policy.checkUrl(url), url).toBeUndefined();
    expect(policy.checkUrl('http://169.254.169.254/')?.rule).toBe('cloud-metadata');
    expect(policy.checkUrl('http://127.0.0.1:3000/api/v1/')?.rule).toBe('platform-address');
    expect(policy.checkUrl('http://localhost:3000/')?.rule).toBe('platform-address');
    expect(policy.checkUrl('http://0.0.0.0:3000/')?.rule).toBe('platform-address');
    // Named with its port, the operator means it.
    expect(
      new EgressPolicy(allow('127.0.0.1:3000'), { host: '127.0.0.1', port: 3000 }).checkUrl('http://127.0.0.1:3000/'),
    ).toBeUndefined();
    expect(new EgressPolicy(allow('127.0.0.1'), { host: '127.0.0.1', port: 3000 }).checkUrl('http://127.0.0.1:3000/')?.rule).toBe(
      'platform-address',
    );
  });
});

describe('the outbound fetch', () => {
  it('connects to an address the policy allowed, skipping refused ones a name resolves to; refuses when none is left', async () => {
    const outbound = createOutbound(allow(`127.0.0.1:${port}`), {
      resolveHost: testResolver({ 'mixed.test': ['10.0.0.9', '127.0.0.1'], 'inside.test': ['10.0.0.9', '::1'] }),
    });
    try {
      expect(await (await outbound.fetch(`http://mixed.test:${port}/`)).text()).toBe('hello');
      const before = connections();
      await expect(outbound.fetch(`http://inside.test:${port}/`)).rejects.toMatchObject({
        code: 'egress-denied',
        rule: 'private',
      });
      expect(connections()).toBe(before);
    } finally {
      await outbound.close();
    }
  });

  it('follows a bounded number of redirects, checking each hop, and cuts a response past its size bound', async () => {
    const outbound = createOutbound(allow(`127.0.0.1:${port}`), { limits: { maxResponseBytes: 1_000, maxRedirects: 3 } });
    try {
      await expect(outbound.fetch(`http://127.0.0.1:${port}/loop`)).rejects.toMatchObject({ code: 'too-many-redirects' });
      expect(received.filter((entry) => entry.path === '/loop')).toHaveLength(4);
      await expect(outbound.fetch(`http://127.0.0.1:${port}/loop`, { redirect: 'error' })).rejects.toBeInstanceOf(
        OutboundLimitError,
      );
      expect((await outbound.fetch(`http://127.0.0.1:${port}/loop`, { redirect: 'manual' })).status).toBe(302);
      await expect(
        outbound.fetch(`http://127.0.0.1:${port}/to?url=${encodeURIComponent('file:///etc/passwd')}`),
      ).rejects.toMatchObject({
        code: 'egress-denied',
        rule: 'scheme',
      });
      const large = await outbound.fetch(`http://127.0.0.1:${port}/large`);
      await expect(large.text()).rejects.toMatchObject({ code: 'response-too-large' });
    } finally {
      await outbound.close();
    }
    // A caller that keeps only the start of an answer reads that much and lets the rest go.
    const roomy = createOutbound(allow(`127.0.0.1:${port}`));
    try {
      expect(await readBoundedText(await roomy.fetch(`http://127.0.0.1:${port}/large`), 10)).toBe('xxxxxxxxxx');
    } finally {
      await roomy.close();
    }
  });

  it('a redirect to another origin keeps no header that could carry a credential; one within the origin keeps them', async () => {
    const outbound = createOutbound(allow('127.0.0.1'), { resolveHost: testResolver({ 'other.test': ['127.0.0.1'] }) });
    const headers = { authorization: 'Bearer t0ken', 'x-api-key': 'k3y', 'content-type': 'application/json' };
    try {
      await outbound.fetch(`http://127.0.0.1:${port}/to?url=${encodeURIComponent(`http://other.test:${port}/cross`)}`, {
        method: 'POST',
        headers,
        body: '{}',
      });
      await outbound.fetch(`http://127.0.0.1:${port}/to?url=/same`, { method: 'POST', headers, body: '{}' });
    } finally {
      await outbound.close();
    }
    const cross = received.find((entry) => entry.path === '/cross')?.headers;
    expect(cross?.authorization).toBeUndefined();
    expect(cross?.['x-api-key']).toBeUndefined();
    expect(cross?.['content-type']).toBe('application/json');
    expect(received.find((entry) => entry.path === '/same')?.headers).toMatchObject({
      authorization: 'Bearer t0ken',
      'x-api-key': 'k3y',
    });
  });

  it('a refusal is an EgressDeniedError that says its rule and states it is final', async () => {
    const outbound = createOutbound(allow(''));
    try {
      const refusal = await outbound.fetch(`http://127.0.0.1:${port}/`).catch((error: unknown) => error);
      expect(refusal).toBeInstanceOf(EgressDeniedError);
      expect(refusal).toMatchObject({ code: 'egress-denied', rule: 'loopback', retryable: false });
      expect((refusal as Error).message).toContain('rule loopback');
    } finally {
      await outbound.close();
    }
  });
});
