/**
 * The MCP client against the real reference servers installed from npm (N-8): ReAct runs that use
 * tools of server-everything and server-filesystem over stdio and of server-everything over
 * streamable HTTP; per-attempt timeouts classified by the retry policy (C-10, X-5); connection
 * failures retryable with a reconnect; `isError` results as business failures; elicitation routed
 * to the approval port, denied by default.
 */
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  connectMcpServer,
  type McpApprovalRequest,
  McpConnectionError,
  type McpServerConnection,
  McpToolError,
} from '../../src/capabilities/mcp/index.js';
import { Agent } from '../../src/engine/agent/agent.js';
import { MemoryRunStore } from '../../src/store/memory/memory-run-store.js';
import { ScriptedModel, type ScriptedReply } from '../../src/testing/index.js';
import { sandboxReachableDirectory } from '../helpers/sandbox-directory.js';
import {
  callTool,
  everythingServer,
  filesystemServer,
  killProcessesWith,
  processesWith,
  startEverythingHttp,
  toolContext,
} from './capability-harness.js';

const directory = sandboxReachableDirectory('agentloom-mcp-');
const connections: McpServerConnection[] = [];
afterAll(async () => {
  await Promise.all(connections.map((connection) => connection.close()));
  rmSync(directory, { recursive: true, force: true });
});

async function connectEverything(extra: Partial<Parameters<typeof connectMcpServer>[0]> = {}, marker = 'everything') {
  const connection = await connectMcpServer({
    name: 'everything',
    transport: 'stdio',
    command: process.execPath,
    args: [everythingServer, 'stdio', `--agentloom-test=${marker}`],
    ...extra,
  } as Parameters<typeof connectMcpServer>[0]);
  connections.push(connection);
  return connection;
}

/** A scripted model that runs `plan` batches in order, then answers with every result. */
function planModel(plan: ScriptedReply['toolCalls'][]): ScriptedModel {
  return new ScriptedModel({
    respond: (request) => {
      const turns = request.messages.filter((message) => message.role === 'assistant').length;
      const batch = plan[turns];
      if (batch) return { toolCalls: batch };
      return {
        text: request.messages
          .filter((message) => message.role === 'tool')
          .map((message) => message.content)
          .join('\n---\n'),
      };
    },
  });
}

describe('MCP tools in ReAct runs (N-8)', () => {
  let files: string;
  beforeAll(() => {
    files = join(directory, 'files');
    rmSync(files, { recursive: true, force: true });
  });

  it('uses server-everything and server-filesystem over stdio', async () => {
    const { mkdirSync } = await import('node:fs');
    mkdirSync(files, { recursive: true });
    const everything = await connectEverything();
    const filesystem = await connectMcpServer({
      name: 'files',
      transport: 'stdio',
      command: process.execPath,
      args: [filesystemServer, files],
    });
    connections.push(filesystem);
    const store = new MemoryRunStore();
    const agent = new Agent({
      name: 'mcp-stdio',
      mode: 'react',
      model: planModel([
        [
          { name: 'everything__get-sum', arguments: { a: 19, b: 23 } },
          { name: 'files__write_file', arguments: { path: join(files, 'answer.txt'), content: '42' } },
        ],
        [
          { name: 'files__read_text_file', arguments: { path: join(files, 'answer.txt') } },
          { name: 'everything__echo', arguments: { message: 'from stdio' } },
          { name: 'files__read_text_file', arguments: { path: join(files, 'missing.txt') } },
        ],
      ]),
      prompt: 'You use MCP tools.',
      tools: [...everything.tools, ...filesystem.tools],
      store,
    });
    const result = await agent.run({ sessionId: 'session-1', input: 'Add and save.' }).result();
    expect(result.status).toBe('succeeded');
    const parts = (result.output ?? '').split('\n---\n');
    expect(parts[0]).toBe('The sum of 19 and 23 is 42.');
    expect(parts[1]).toContain('Successfully wrote');
    expect(parts[2]).toBe('42');
    expect(parts[3]).toBe('Echo: from stdio');
    // isError from the server: a business failure handed to the model, not retried.
    expect(parts[4]).toMatch(/^Error \(tool-error\): .*missing\.txt/s);
    expect(readFileSync(join(files, 'answer.txt'), 'utf8')).toBe('42');
    await expect(callTool(filesystem.tools, 'files__read_text_file', { path: join(files, 'missing.txt') })).rejects.toSatisfy(
      (error: unknown) => McpToolError.isInstance(error) && error.retryable === false,
    );
  });

  it('uses server-everything over streamable HTTP, started as a child process on a free port', async () => {
    const server = await startEverythingHttp();
    try {
      const everything = await connectMcpServer({ name: 'everything', transport: 'streamable-http', url: server.url });
      connections.push(everything);
      const agent = new Agent({
        name: 'mcp-http',
        mode: 'react',
        model: planModel([
          [
            { name: 'everything__get-sum', arguments: { a: 1, b: 2 } },
            { name: 'everything__get-structured-content', arguments: { location: 'Chicago' } },
          ],
          [{ name: 'everything__echo', arguments: { message: 'from http' } }],
        ]),
        prompt: 'You use MCP tools.',
        tools: everything.tools,
        store: new MemoryRunStore(),
      });
      const result = await agent.run({ sessionId: 'session-1', input: 'Go.' }).result();
      expect(result.status).toBe('succeeded');
      const parts = (result.output ?? '').split('\n---\n');
      expect(parts[0]).toBe('The sum of 1 and 2 is 3.');
      expect(JSON.parse(parts[1] ?? '{}')).toMatchObject({ conditions: expect.any(String) });
      expect(parts[2]).toBe('Echo: from http');
      await everything.close();
    } finally {
      await server.stop();
    }
  });
});

describe('MCP attempts, failures and questions', () => {
  const longCall = { name: 'everything__trigger-long-running-operation', arguments: { duration: 30, steps: 30 } };

  it.each([
    { retry: true, attempts: 2, failedBefore: 1 },
    { retry: false, attempts: 1, failedBefore: 0 },
  ])('classifies a call that times out by the retry policy (retry $retry)', async ({ retry, attempts, failedBefore }) => {
    const everything = await connectEverything();
    const store = new MemoryRunStore();
    const agent = new Agent({
      name: 'mcp-timeout',
      mode: 'react',
      model: planModel([[longCall]]),
      prompt: 'You wait.',
      tools: everything.tools,
      store,
      execution: { toolTimeoutMs: 300, retry: { enabled: retry, attempts: 2, waitMs: 10 } },
    });
    const run = agent.run({ sessionId: 'session-1', input: 'Wait.' });
    const result = await run.result();
    expect(result.status).toBe('succeeded');
    expect(result.output).toMatch(/^Error \(timeout\): the attempt ran past its 300 ms timeout/);
    const journal = await store.readJournal(run.runId);
    const failed = journal.filter((entry) => entry.type === 'attempt-failed');
    expect(failed).toHaveLength(failedBefore);
    for (const entry of failed) expect(entry.data).toMatchObject({ failure: { kind: 'timeout' } });
    expect(journal.find((entry) => entry.type === 'operation-finished')?.data).toMatchObject({
      status: 'failed',
      attempts,
      failure: { kind: 'timeout' },
    });
  });

  it('honours the attempt signal: an aborted call rejects with its reason at once', async () => {
    const everything = await connectEverything();
    const controller = new AbortController();
    const reason = new Error('attempt aborted by the test');
    const pending = callTool(everything.tools, longCall.name, longCall.arguments, toolContext({ signal: controller.signal }));
    setTimeout(() => controller.abort(reason), 100);
    await expect(pending).rejects.toBe(reason);
    expect(await callTool(everything.tools, 'everything__echo', { message: 'still connected' })).toBe('Echo: still connected');
  });

  it('reports a lost server as a retryable connection failure and reconnects on the next attempt', async () => {
    await expect(
      connectMcpServer({ name: 'broken', transport: 'stdio', command: process.execPath, args: ['-e', 'process.exit(3)'] }),
    ).rejects.toSatisfy((error: unknown) => McpConnectionError.isInstance(error) && error.retryable);
    const marker = `lost-${process.pid}`;
    const everything = await connectEverything({}, marker);
    const pending = callTool(everything.tools, longCall.name, longCall.arguments);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(processesWith(marker)).toHaveLength(1);
    killProcessesWith(marker);
    await expect(pending).rejects.toSatisfy((error: unknown) => McpConnectionError.isInstance(error) && error.retryable);
    expect(await callTool(everything.tools, 'everything__echo', { message: 'reconnected' })).toBe('Echo: reconnected');
    expect(processesWith(marker)).toHaveLength(1);
  });

  it('routes elicitation to the approval port: denied by default, answered by a port, with a stable id', async () => {
    const denied = await connectEverything();
    expect(await callTool(denied.tools, 'everything__trigger-elicitation-request', {})).toContain('"action": "decline"');
    const asked: McpApprovalRequest[] = [];
    const approving = await connectEverything({
      approvals: {
        request: async (request) => {
          asked.push(request);
          return { decision: 'approve', content: { name: 'Ada', check: true, color: 'red' } };
        },
      },
    });
    const context = toolContext({ operationId: 'operation-elicit', runId: 'run-9', sessionId: 'session-9' });
    const answer = String(await callTool(approving.tools, 'everything__trigger-elicitation-request', {}, context));
    expect(answer).toContain('"action": "accept"');
    expect(answer).toContain('Ada');
    await callTool(approving.tools, 'everything__trigger-elicitation-request', {}, { ...context, attempt: 2 });
    expect(asked[0]).toMatchObject({
      kind: 'mcp-elicitation',
      mode: 'form',
      subject: { runId: 'run-9', sessionId: 'session-9', operationId: 'operation-elicit', attempt: 1 },
      source: { server: 'everything', tool: 'trigger-elicitation-request' },
      requestedSchema: { type: 'object' },
    });
    expect(asked[1]?.id).toBe(asked[0]?.id);
  });
});
