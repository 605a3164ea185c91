/**
 * Killing the process in the middle of an MCP call (SIGKILL of a child running the agent, as in
 * test/crash) and resuming the run in a new process (R-5, X-7, K-3): the call is recorded
 * `unknown-outcome` and then goes through the retry policy. With retry off the model reads the
 * unknown outcome; with retry on, a long-running MCP task is continued by the new process — same
 * task, no second execution — because the operation id was linked to the task in the ledger.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, describe, expect, it } from 'vitest';
import { FileMcpTaskLedger } from '../../src/capabilities/mcp/index.js';
import type { RunResult } from '../../src/core/run-result.js';
import type { JournalEntry } from '../../src/store/run-store.js';
import { SqliteRunStore } from '../../src/store/sqlite/index.js';
import { sandboxReachableDirectory } from '../helpers/sandbox-directory.js';
import { killProcessesWith, runTestChild, startEverythingHttp, tagged } from './capability-harness.js';

const directory = sandboxReachableDirectory('agentloom-mcp-crash-');
afterAll(() => rmSync(directory, { recursive: true, force: true }));

async function journalOf(path: string, runId: string): Promise<JournalEntry[]> {
  const store = new SqliteRunStore({ path });
  try {
    return await store.readJournal(runId);
  } finally {
    await store.close();
  }
}

const ofOperation = (entries: JournalEntry[], type: string) =>
  entries.filter((entry) => entry.type === type).map((entry) => entry.data);

describe('an MCP call cut by SIGKILL (R-5, X-7, K-3)', () => {
  it('resumes with the call recorded unknown, handed to the model when retry is off (stdio)', async () => {
    const marker = `mcp-crash-${process.pid}-stdio`;
    const env = {
      MCP_CRASH_MODE: 'stdio',
      MCP_CRASH_STORE: join(directory, 'stdio.db'),
      MCP_CRASH_RUN_ID: 'run-stdio',
      MCP_CRASH_LEDGER: join(directory, 'ledger-stdio'),
      MCP_CRASH_RETRY: '0',
      MCP_CRASH_MARKER: marker,
    };
    try {
      const crashed = await runTestChild('mcp-crash-child.ts', { ...env, MCP_CRASH_FREEZE: '1' }, 'FROZEN');
      expect(crashed.exitSignal, crashed.stderr).toBe('SIGKILL');
      const before = await journalOf(env.MCP_CRASH_STORE, env.MCP_CRASH_RUN_ID);
      expect(before.at(-1)?.type).toBe('attempt-started');
      const resumed = await runTestChild('mcp-crash-child.ts', env);
      const result = tagged<RunResult>(resumed, 'RESULT', true);
      expect(result, resumed.stderr).toMatchObject({ status: 'succeeded', runId: 'run-stdio' });
      expect(result?.output).toContain('Finished: Error (unknown-outcome)');
      const after = await journalOf(env.MCP_CRASH_STORE, env.MCP_CRASH_RUN_ID);
      expect(ofOperation(after, 'attempt-started')).toHaveLength(1);
      expect(ofOperation(after, 'operation-finished')).toEqual([
        expect.objectContaining({ status: 'failed', attempts: 1, failure: expect.objectContaining({ kind: 'unknown-outcome' }) }),
      ]);
    } finally {
      killProcessesWith(marker);
    }
  });

  it('continues the recorded MCP task after a takeover instead of calling the tool again (streamable HTTP)', async () => {
    const server = await startEverythingHttp();
    const env = {
      MCP_CRASH_MODE: 'http-task',
      MCP_CRASH_URL: server.url,
      MCP_CRASH_STORE: join(directory, 'http.db'),
      MCP_CRASH_RUN_ID: 'run-http',
      MCP_CRASH_LEDGER: join(directory, 'ledger-http'),
      MCP_CRASH_RETRY: '1',
    };
    try {
      const crashed = await runTestChild('mcp-crash-child.ts', { ...env, MCP_CRASH_FREEZE: '1' }, 'FROZEN');
      expect(crashed.exitSignal, crashed.stderr).toBe('SIGKILL');
      const operationId = tagged(crashed, 'IN-CALL') as string;
      const ledger = new FileMcpTaskLedger(env.MCP_CRASH_LEDGER);
      const created = await ledger.get(operationId);
      expect(created?.history.map((step) => step.action)).toEqual(['created']);

      const resumed = await runTestChild('mcp-crash-child.ts', env);
      const result = tagged<RunResult>(resumed, 'RESULT', true);
      expect(result, resumed.stderr).toMatchObject({ status: 'succeeded', runId: 'run-http' });
      expect(result?.output).toContain('Finished: # Research Report: durable runs');
      const after = await journalOf(env.MCP_CRASH_STORE, env.MCP_CRASH_RUN_ID);
      expect(ofOperation(after, 'attempt-failed')).toEqual([
        expect.objectContaining({ operationId, attempt: 1, failure: expect.objectContaining({ kind: 'unknown-outcome' }) }),
      ]);
      expect(ofOperation(after, 'operation-finished')).toEqual([
        expect.objectContaining({ operationId, status: 'succeeded', attempts: 2 }),
      ]);
      const record = await ledger.get(operationId);
      expect(record?.history.map((step) => [step.attempt, step.action, step.taskId])).toEqual([
        [1, 'created', created?.taskId],
        [2, 'continued', created?.taskId],
      ]);
      // The server ran one task for the operation: the takeover did not execute the tool again.
      const client = new Client({ name: 'inspector', version: '1' });
      await client.connect(new StreamableHTTPClientTransport(new URL(server.url), { sessionId: record?.mcpSessionId as string }));
      const { tasks } = await client.experimental.tasks.listTasks();
      expect(tasks.map((task) => [task.taskId, task.status])).toEqual([[created?.taskId, 'completed']]);
      await client.close();
    } finally {
      await server.stop();
    }
  });
});
