import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appendResourceVersion } from '../src/adapters/database/repositories/resource-repository.js';
import { hiddenCredential } from '../src/domain/credential-headers.js';
import { maximumJsonDepth } from '../src/http/json-depth.js';
import { createTestPlatform, dialects, seedUser, TestClient, type TestPlatform } from './harness.js';
import { buildSpace, type SpaceFixture } from './scenario.js';
import { deflatedZeros, honestEntry, writeZip } from './zip-writer.js';

const errorOf = (body: unknown) =>
  (body as { error?: { code?: string; message?: string; details?: Record<string, unknown> } }).error;
const skillText = Buffer.from('---\nname: notes-helper\ndescription: Use when the user asks about notes.\n---\nBody\n');
/** `{"a":{"a":…1…}}`, `depth` objects deep. */
const deepObject = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
/** `[[…1…]]`, `depth` arrays deep. */
const deepArray = (depth: number) => `${'['.repeat(depth)}1${']'.repeat(depth)}`;

describe.each(dialects)('input limits on %s (P-15.4)', (dialect) => {
  let platform: TestPlatform;
  let owner: TestClient;
  let space: SpaceFixture;

  beforeAll(async () => {
    platform = await createTestPlatform(dialect);
    await seedUser(platform, 'owner@example.com');
    owner = await new TestClient(platform).login('owner@example.com', 'correct horse battery staple');
    space = await buildSpace(owner, 'Limits');
  });
  afterAll(() => platform.destroy());

  const countRows = async () =>
    (await platform.services.database.selectFrom('resource_versions').select('version').execute()).length +
    (await platform.services.database.selectFrom('runs').select('id').execute()).length;

  it('answers 422 json-too-deep for a body nested 100,000 deep on every route (tool parameters, draft, run input, login, any body), writing nothing', async () => {
    const before = await countRows();
    const tool = `{"type":"tool","name":"deep","content":{"kind":"http","description":"d","parameters":{"type":"object","properties":${deepObject(100_000)}},"request":{"method":"POST","url":"http://tools.example/x","headers":{}}}}`;
    const calls = [
      owner.request('POST', `/spaces/${space.spaceId}/resources`, tool),
      owner.request('POST', `/spaces/${space.spaceId}/resources/${space.toolId}/versions`, `{"content":${deepArray(100_000)}}`),
      owner.request('PUT', `/apps/${space.appId}/draft`, `{"config":{"prompt":${deepObject(100_000)}}}`, { 'if-match': '"2"' }),
      owner.request('POST', `/apps/${space.appId}/runs`, `{"input":{"question":${deepArray(100_000)}}}`),
      owner.request('POST', '/spaces', `{"name":${deepArray(100_000)}}`),
      new TestClient(platform).request('POST', '/auth/login', `{"email":${deepObject(100_000)},"password":"x"}`),
    ];
    for (const response of await Promise.all(calls)) {
      expect([response.status, errorOf(response.body)?.code]).toEqual([422, 'json-too-deep']);
      expect(errorOf(response.body)?.details).toEqual({ maximumDepth: maximumJsonDepth });
    }
    expect(await countRows()).toBe(before);
  });

  it('still accepts JSON nested to the limit, counts only real brackets, and leaves malformed JSON to the parser', async () => {
    // `properties` at depth 4 of the body; 55 more levels stay within 64.
    const parameters = `{"type":"object","properties":${deepObject(55)}}`;
    const atLimit = await owner.request(
      'POST',
      `/spaces/${space.spaceId}/resources`,
      `{"type":"tool","name":"nested","content":{"kind":"http","description":"d","parameters":${parameters},"request":{"method":"POST","url":"http://tools.example/x","headers":{}}}}`,
    );
    expect(atLimit.status, JSON.stringify(atLimit.body)).toBe(201);
    const bracketsInText = await owner.request('POST', '/spaces', JSON.stringify({ name: `${'['.repeat(150)}"\\{` }));
    expect(bracketsInText.status).toBe(201);
    const malformed = await owner.request('POST', '/spaces', '{"name": [[[');
    expect([malformed.status, errorOf(malformed.body)?.code]).toEqual([400, 'malformed-json']);
  });

  describe('skill zips', () => {
    let skillId: string;
    const upload = (zip: Uint8Array) =>
      owner.request('POST', `/spaces/${space.spaceId}/resources/${skillId}/versions`, zip, { 'content-type': 'application/zip' });
    const versions = async () =>
      (
        await platform.services.database
          .selectFrom('resource_versions')
          .select('version')
          .where('resource_id', '=', skillId)
          .execute()
      ).length;

    beforeAll(async () => {
      const created = await owner.request('POST', `/spaces/${space.spaceId}/resources`, { type: 'skill', name: 'notes-helper' });
      skillId = (created.body as { resource: { id: string } }).resource.id;
    });

    it('accepts an honest zip written by the same writer', async () => {
      const zip = writeZip([
        honestEntry('notes-helper/SKILL.md', skillText),
        honestEntry('notes-helper/data.txt', Buffer.from('x')),
      ]);
      const response = await upload(zip);
      expect(response.status, JSON.stringify(response.body)).toBe(201);
    });

    it('refuses a zip whose headers declare 1,000 bytes for a 200 MiB entry, after inflating only a few kilobytes of it', async () => {
      const before = await versions();
      const zip = writeZip([
        honestEntry('notes-helper/SKILL.md', skillText),
        { name: 'notes-helper/big.bin', deflated: deflatedZeros(200), declaredSize: 1000, crc: 0 },
      ]);
      expect(zip.length).toBeLessThan(300_000);
      const response = await upload(zip);
      expect([response.status, errorOf(response.body)?.code]).toEqual([422, 'invalid-skill-package']);
      const problems = errorOf(response.body)?.details?.problems as { path: string; message: string }[];
      expect(problems[0]?.path).toBe('notes-helper/big.bin');
      // yauzl says how far it got before it stopped the stream: a few kilobytes, not 200 MiB.
      const seen = Number(/got at least (\d+)/.exec(problems[0]?.message ?? '')?.[1]);
      expect(seen).toBeGreaterThan(1000);
      expect(seen).toBeLessThan(1024 * 1024);
      expect(await versions()).toBe(before);
    });

    it('refuses a stored entry whose headers declare 1,000 bytes of a longer file (it used to be accepted, truncated)', async () => {
      const before = await versions();
      const content = Buffer.alloc(1 << 20, 7);
      const truncated = writeZip([
        honestEntry('notes-helper/SKILL.md', skillText),
        {
          name: 'notes-helper/data.bin',
          deflated: content,
          stored: true,
          declaredSize: 1000,
          crc: honestEntry('x', content).crc,
        },
      ]);
      const response = await upload(truncated);
      expect([response.status, errorOf(response.body)?.code]).toEqual([422, 'invalid-skill-package']);
      expect(JSON.stringify(response.body)).toContain('CRC32');
      expect(await versions()).toBe(before);
    });

    it('refuses an entry whose CRC32 does not match its contents', async () => {
      const before = await versions();
      const altered = honestEntry('notes-helper/data.txt', Buffer.from('the original text'));
      const response = await upload(
        writeZip([honestEntry('notes-helper/SKILL.md', skillText), { ...altered, crc: altered.crc ^ 1 }]),
      );
      expect([response.status, errorOf(response.body)?.code]).toEqual([422, 'invalid-skill-package']);
      expect(JSON.stringify(response.body)).toContain('CRC32');
      expect(await versions()).toBe(before);
    });

    it('refuses a zip whose header declares more bytes than the entry holds, and one that is not a zip', async () => {
      const short = honestEntry('notes-helper/data.txt', Buffer.from('short'));
      const lying = await upload(writeZip([honestEntry('notes-helper/SKILL.md', skillText), { ...short, declaredSize: 50 }]));
      expect([lying.status, errorOf(lying.body)?.code]).toEqual([422, 'invalid-skill-package']);
      expect(JSON.stringify(lying.body)).toContain('not enough bytes');
      const garbage = await upload(new Uint8Array(Buffer.from('PK but not a zip at all')));
      expect([garbage.status, errorOf(garbage.body)?.code]).toEqual([422, 'invalid-skill-package']);
    });
  });

  it('refuses literal credential headers of HTTP tools, MCP servers and hooks at the field, pointing to space secrets', async () => {
    const before = await countRows();
    const base = `/spaces/${space.spaceId}/resources`;
    const tool = (headers: Record<string, unknown>) => ({
      type: 'tool',
      name: `tool-${Math.random().toString(36).slice(2, 8)}`,
      content: {
        kind: 'http',
        description: 'd',
        parameters: { type: 'object' },
        request: { method: 'POST', url: 'http://tools.example/x', headers },
      },
    });
    const refusals = [
      [await owner.request('POST', base, tool({ Authorization: 'Bearer sk-live-123' })), 'content.request.headers.Authorization'],
      [await owner.request('POST', base, tool({ 'X-Api-Key': 'k-123' })), 'content.request.headers.X-Api-Key'],
      [await owner.request('POST', base, tool({ 'Private-Token': 't' })), 'content.request.headers.Private-Token'],
      [await owner.request('POST', base, tool({ Cookie: 'session=1' })), 'content.request.headers.Cookie'],
      [
        await owner.request('POST', base, {
          type: 'mcp-server',
          name: 'mcp',
          content: {
            transport: 'streamable-http',
            url: 'http://mcp.example/mcp',
            headers: { 'Proxy-Authorization': 'Basic eA==' },
          },
        }),
        'content.headers.Proxy-Authorization',
      ],
      [
        await owner.request('POST', base, {
          type: 'hook',
          name: 'hook',
          content: { trigger: 'Stop', kind: 'http', url: 'http://hooks.example/h', headers: { 'X-Hook-Secret': 's' } },
        }),
        'content.headers.X-Hook-Secret',
      ],
      [
        await owner.request('POST', `${base}/${space.toolId}/versions`, { content: tool({ 'x-access-token': 'abc' }).content }),
        'content.request.headers.x-access-token',
      ],
    ] as const;
    for (const [response, path] of refusals) {
      expect([response.status, errorOf(response.body)?.code], path).toEqual([422, 'literal-credential']);
      const issues = errorOf(response.body)?.details?.issues as { path: string; message: string }[];
      expect(issues.map((issue) => issue.path)).toEqual([path]);
      expect(issues[0]?.message).toContain('{"secret": "NAME"}');
    }
    expect(await countRows()).toBe(before);
    // Secret references and ordinary literal headers are fine.
    const fine = await owner.request('POST', base, tool({ Authorization: { secret: 'TOOL_TOKEN' }, Accept: 'application/json' }));
    expect(fine.status, JSON.stringify(fine.body)).toBe(201);
  });

  it('never returns a literal credential stored before the rule from the version routes', async () => {
    const old = {
      kind: 'http',
      description: 'd',
      parameters: { type: 'object' },
      request: {
        method: 'GET',
        url: 'http://tools.example/x',
        headers: { Authorization: 'Bearer OLD-LITERAL-7731', Accept: 'text/plain' },
      },
      timeoutMs: 30_000,
    };
    await platform.services.database.transaction().execute(async (transaction) => {
      const resource = await transaction
        .selectFrom('resources')
        .selectAll()
        .where('id', '=', space.toolId)
        .executeTakeFirstOrThrow();
      await appendResourceVersion(transaction, resource, {
        content: old,
        storageRef: null,
        contentHash: 'old',
        createdBy: 'migration',
        now: new Date().toISOString(),
      });
    });
    const list = await owner.request('GET', `/spaces/${space.spaceId}/resources/${space.toolId}/versions`);
    const latest = (list.body as { versions: { version: number; content: typeof old }[] }).versions[0];
    const one = await owner.request('GET', `/spaces/${space.spaceId}/resources/${space.toolId}/versions/${latest?.version}`);
    for (const text of [JSON.stringify(list.body), JSON.stringify(one.body)]) expect(text).not.toContain('OLD-LITERAL-7731');
    expect(latest?.content.request.headers).toEqual({ Authorization: hiddenCredential, Accept: 'text/plain' });
    expect((one.body as { version: { content: typeof old } }).version.content.request.headers.Authorization).toBe(
      hiddenCredential,
    );
  });
});
