/**
 * The escape corpus (F-2, F-3, K-2): well over 100 attempts to leave the authorised view through
 * the file tools, scripts in the bubblewrap sandbox, and the MCP filesystem server running in the
 * same sandbox. Each attempt must end in a typed refusal (`WorkspaceAccessError` with its reason,
 * an errno code inside the sandbox, an `McpToolError` from the server), no output may contain a
 * secret, and nothing outside the attacker's own work directory may change.
 */
import { rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { dirname } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { connectMcpServer, type McpServerConnection, McpToolError } from '../../src/capabilities/mcp/index.js';
import { WorkspaceAccessError } from '../../src/sandbox/index.js';
import { describeWithBubblewrap } from './bubblewrap-availability.js';
import { callTool, filesystemServer, nodeModules, toolContext } from './capability-harness.js';
import { type CorpusAttempt, corpusAttempts } from './escape-corpus-cases.js';
import { type CorpusFixture, createCorpusFixture } from './escape-corpus-fixture.js';

const refusalCodes = new Set(['ENOENT', 'EACCES', 'EPERM', 'EROFS', 'EXDEV', 'ELOOP', 'ENOTDIR', 'ECONNREFUSED', 'ENETUNREACH']);

interface Outcome {
  attempt: CorpusAttempt;
  /** `refused:<type>` for a typed refusal; anything else is a failure of the corpus. */
  verdict: string;
  output: string;
}

async function attempt(fixture: CorpusFixture, files: McpServerConnection, item: CorpusAttempt): Promise<Outcome> {
  const context = toolContext(fixture.attacker);
  try {
    if (item.channel === 'script') {
      const output = String(await callTool(fixture.workspace.tools, 'run_command', { command: item.command }, context));
      const line = output.split('\n').find((candidate) => candidate.startsWith('{')) ?? '{}';
      const probe = JSON.parse(line) as { ok?: boolean; code?: string };
      if (probe.ok === false && probe.code && refusalCodes.has(probe.code))
        return { attempt: item, verdict: `refused:${probe.code}`, output };
      return { attempt: item, verdict: probe.ok ? 'ESCAPED' : `unexpected:${probe.code}`, output };
    }
    const tools = item.channel === 'file-tool' ? fixture.workspace.tools : files.tools;
    const name = item.channel === 'file-tool' ? item.tool : `files__${item.tool}`;
    const output = String(await callTool(tools, name, item.args, context));
    return { attempt: item, verdict: 'ESCAPED', output };
  } catch (error) {
    const output = error instanceof Error ? error.message : String(error);
    if (item.channel === 'file-tool' && WorkspaceAccessError.isInstance(error))
      return { attempt: item, verdict: `refused:${error.reason}`, output };
    if (item.channel === 'mcp-filesystem' && McpToolError.isInstance(error))
      return { attempt: item, verdict: 'refused:mcp-tool-error', output };
    return { attempt: item, verdict: `unexpected:${(error as { code?: string }).code ?? String(error)}`, output };
  }
}

describeWithBubblewrap('escape corpus through file tools, scripts and the MCP filesystem server (F-2, F-3)', () => {
  let fixture: CorpusFixture;
  let files: McpServerConnection;
  let listener: Server;
  let port = 0;

  beforeAll(async () => {
    fixture = await createCorpusFixture();
    const nodeDirectory = dirname(process.execPath);
    files = await connectMcpServer({
      name: 'files',
      transport: 'stdio',
      command: process.execPath,
      args: [filesystemServer, '/work'],
      sandbox: {
        sandbox: fixture.workspace.sandbox as NonNullable<typeof fixture.workspace.sandbox>,
        workspace: fixture.workspace,
        scope: fixture.attacker,
        readOnlyPaths: [nodeModules, ...(nodeDirectory.startsWith('/usr/') ? [] : [nodeDirectory])],
      },
    });
    listener = createServer((socket) => socket.end('host service'));
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    port = (listener.address() as { port: number }).port;
  }, 60_000);

  afterAll(async () => {
    await files?.close();
    listener?.close();
    if (fixture) rmSync(fixture.base, { recursive: true, force: true });
  });

  it('refuses every attempt with a typed refusal, leaks no secret and changes nothing outside the view', async () => {
    const before = fixture.snapshot();
    const attempts = corpusAttempts(fixture.targets, port, process.pid);
    const outcomes: Outcome[] = [];
    for (const item of attempts) outcomes.push(await attempt(fixture, files, item));

    const summary = new Map<string, number>();
    for (const outcome of outcomes) {
      const key = `${outcome.attempt.channel} ${outcome.verdict}`;
      summary.set(key, (summary.get(key) ?? 0) + 1);
    }
    console.log(
      `escape corpus: ${outcomes.length} attempts\n${[...summary.entries()]
        .sort()
        .map(([key, count]) => `  ${key}: ${count}`)
        .join('\n')}`,
    );
    if (process.env.CORPUS_DEBUG)
      for (const outcome of outcomes)
        console.log(
          outcome.verdict,
          JSON.stringify(outcome.attempt).slice(0, 140),
          '→',
          outcome.output.replace(/\s+/g, ' ').slice(0, 160),
        );
    const failures = outcomes
      .filter((outcome) => !outcome.verdict.startsWith('refused:'))
      .map((outcome) => `${outcome.verdict} ${JSON.stringify(outcome.attempt)} → ${outcome.output.slice(0, 200)}`);
    expect(failures).toEqual([]);
    expect(outcomes.length).toBeGreaterThanOrEqual(100);
    for (const channel of ['file-tool', 'script', 'mcp-filesystem']) {
      expect(outcomes.filter((outcome) => outcome.attempt.channel === channel).length).toBeGreaterThanOrEqual(25);
    }
    const leaks = outcomes.filter((outcome) => fixture.tokens.some((secret) => outcome.output.includes(secret)));
    expect(leaks.map((outcome) => outcome.attempt)).toEqual([]);
    expect(fixture.snapshot()).toEqual(before);
  }, 240_000);

  it('lets every channel work inside the view (the refusals above are not a broken channel)', async () => {
    const context = toolContext(fixture.attacker);
    expect(String(await callTool(fixture.workspace.tools, 'read_file', { path: 'probe.mjs' }, context))).toContain('linkSync');
    const script = String(
      await callTool(
        fixture.workspace.tools,
        'run_command',
        { command: 'node /work/probe.mjs write /work/from-script.txt' },
        context,
      ),
    );
    expect(script).toContain('{"ok":true');
    expect(String(await callTool(files.tools, 'files__read_text_file', { path: '/work/from-script.txt' }, context))).toBe(
      'escaped',
    );
    expect(String(await callTool(files.tools, 'files__list_directory', { path: '/work' }, context))).toContain(
      '[FILE] probe.mjs',
    );
  });

  it('skips planted links and hard links when searching the view, and keeps sessions apart', async () => {
    const output = String(
      await callTool(fixture.workspace.tools, 'grep_files', { pattern: 'SECRET' }, toolContext(fixture.attacker)),
    );
    expect(fixture.tokens.some((secret) => output.includes(secret))).toBe(false);
    expect(output).toContain('skipped');
    const stranger = toolContext({ sessionId: 'victim', runId: 'victim-run' });
    await expect(callTool(files.tools, 'files__list_directory', { path: '/work' }, stranger)).rejects.toSatisfy(
      (error: unknown) => WorkspaceAccessError.isInstance(error) && error.reason === 'other-scope',
    );
  });
});
