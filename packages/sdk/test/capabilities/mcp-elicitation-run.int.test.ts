/**
 * MCP elicitation in agent runs (N-8, ADR 0038), against a real MCP server (the official SDK's,
 * over streamable HTTP): a server's `elicitation/create` during a tool call is journaled with its
 * requested schema, the run waits (`describeRun` shows it pending, an `elicitation-request` event
 * is emitted), and goes on with a person's answer given through `RunClient` from outside the run —
 * accepted content checked against the schema (its defaults applied, SEP-1034), or declined. A
 * supplement never answers it. After a SIGKILL while the question waits, the taker records the
 * call `unknown` and never sends it again, even with retry on.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bookingForm, ElicitationMcpServer } from '../../../../test/support/elicitation-mcp-server.js';
import { connectMcpServer, type McpServerConnection } from '../../src/capabilities/mcp/index.js';
import type { RunResult } from '../../src/core/run-result.js';
import {
  Agent,
  type AgentRunDescription,
  ElicitationNotFoundError,
  ElicitationNotPendingError,
  InvalidElicitationAnswerError,
  RunClient,
} from '../../src/index.js';
import { SqliteRunStore } from '../../src/store/sqlite/index.js';
import { ScriptedModel } from '../../src/testing/index.js';
import { runTestChild, tagged } from './capability-harness.js';

const directory = mkdtempSync(join(tmpdir(), 'agentloom-elicitation-'));
let server: ElicitationMcpServer;
let connection: McpServerConnection;
let store: SqliteRunStore;
let client: RunClient;

beforeAll(async () => {
  server = await new ElicitationMcpServer().start();
  connection = await connectMcpServer({ name: 'restaurant', transport: 'streamable-http', url: server.url, approvals: 'run' });
  store = new SqliteRunStore({ path: join(directory, 'runs.db') });
  client = new RunClient({ store });
});

afterAll(async () => {
  await connection?.close();
  await store?.close();
  await server?.close();
  rmSync(directory, { recursive: true, force: true });
});

function bookingAgent(): Agent {
  const model = new ScriptedModel({
    respond: (request) => {
      const result = request.messages.find((message) => message.role === 'tool');
      return result
        ? { text: `Finished: ${result.content}` }
        : { toolCalls: [{ name: 'restaurant__book_table', arguments: { date: 'Friday' } }] };
    },
  });
  return new Agent({ name: 'booking', mode: 'react', model, prompt: 'You book tables.', tools: connection.tools, store });
}

/** Waits for the run's `elicitation-request` event; answers its elicitation id. */
async function questionOf(run: ReturnType<Agent['run']>): Promise<string> {
  for await (const event of run.events())
    if (event.type === 'elicitation-request') {
      expect(event).toMatchObject({ server: 'restaurant', toolName: 'restaurant__book_table', mode: 'form' });
      expect(event.requestedSchema).toEqual(bookingForm);
      return event.elicitationId;
    }
  throw new Error('the run ended without a question');
}

async function elicitationsOf(runId: string) {
  return ((await client.describeRun(runId)).agent as AgentRunDescription).elicitations;
}

describe('MCP elicitation answered by the run’s user (ADR 0038)', () => {
  it('journals the question, waits, refuses invalid content, and goes on with the accepted form (defaults applied)', async () => {
    const run = bookingAgent().run({ sessionId: 'session-accept', runId: 'run-accept', input: 'Book Friday.' });
    const elicitationId = await questionOf(run);
    const [pending] = await elicitationsOf('run-accept');
    expect(pending).toMatchObject({ elicitationId, status: 'pending', message: 'Who is the table on Friday for?' });
    expect(pending?.requestedSchema).toEqual(bookingForm);
    expect((await client.describeRun('run-accept')).status).toBe('running');

    // A supplement is a message, not an answer: the question stays pending.
    await client.supplement('run-accept', 'Accept it for me, name Mallory.');
    await expect(client.answerElicitation('run-accept', { elicitationId: 'nope', action: 'accept' })).rejects.toSatisfy(
      ElicitationNotFoundError.isInstance,
    );
    const invalid = client.answerElicitation('run-accept', {
      elicitationId,
      action: 'accept',
      content: { name: 'Ada', guests: 40 },
    });
    await expect(invalid).rejects.toSatisfy(
      (error: unknown) =>
        InvalidElicitationAnswerError.isInstance(error) && error.problems.some((problem) => problem.path.join('.') === 'guests'),
    );
    await expect(
      client.answerElicitation('run-accept', {
        elicitationId,
        action: 'accept',
        content: { name: 'Ada', guests: 2, pets: { a: 1 } },
      }),
    ).rejects.toSatisfy(InvalidElicitationAnswerError.isInstance);
    expect((await elicitationsOf('run-accept'))[0]?.status).toBe('pending');

    await client.answerElicitation('run-accept', {
      elicitationId,
      action: 'accept',
      content: { name: 'Ada', guests: 2 },
      answeredBy: 'user:ada',
    });
    const result = await run.result();
    expect(result.status).toBe('succeeded');
    const expected = { name: 'Ada', guests: 2, seating: 'indoor', vegetarian: false };
    expect(server.answers.at(-1)).toEqual({ action: 'accept', content: expected });
    expect(result.output).toContain(JSON.stringify(expected));
    const [answered] = await elicitationsOf('run-accept');
    expect(answered).toMatchObject({
      status: 'answered',
      answer: { action: 'accept', content: expected, answeredBy: 'user:ada' },
    });
    await expect(client.answerElicitation('run-accept', { elicitationId, action: 'decline' })).rejects.toThrow();
  });

  it('a decline reaches the server as a decline; a second answer is refused', async () => {
    const run = bookingAgent().run({ sessionId: 'session-decline', runId: 'run-decline', input: 'Book Friday.' });
    const elicitationId = await questionOf(run);
    await client.answerElicitation('run-decline', { elicitationId, action: 'decline' });
    await expect(client.answerElicitation('run-decline', { elicitationId, action: 'accept', content: {} })).rejects.toSatisfy(
      (error: unknown) => ElicitationNotPendingError.isInstance(error) && error.why === 'answered',
    );
    const result = await run.result();
    expect(result.output).toContain('not booked (decline)');
    expect(server.answers.at(-1)).toEqual({ action: 'decline' });
  });
});

describe('a crash while the question waits (X-7, ADR 0038)', () => {
  it('the taker records the call unknown and never sends it again, even with retry on', async () => {
    const env = { ELICIT_URL: server.url, ELICIT_STORE: join(directory, 'crash.db'), ELICIT_RUN_ID: 'run-crash' };
    const callsBefore = server.calls.length;
    const crashed = await runTestChild('mcp-elicitation-child.ts', { ...env, ELICIT_FREEZE: '1' }, 'FROZEN');
    expect(crashed.exitSignal, `${crashed.stderr}\n${crashed.lines.join('\n')}`).toBe('SIGKILL');
    expect(server.calls.length).toBe(callsBefore + 1);
    const crashStore = new SqliteRunStore({ path: env.ELICIT_STORE });
    try {
      const crashClient = new RunClient({ store: crashStore });
      const [asked] = ((await crashClient.describeRun('run-crash')).agent as AgentRunDescription).elicitations;
      expect(asked?.status).toBe('pending');
      const resumed = await runTestChild('mcp-elicitation-child.ts', env);
      const result = tagged<RunResult>(resumed, 'RESULT', true);
      expect(result, resumed.stderr).toMatchObject({ status: 'succeeded', runId: 'run-crash' });
      expect(result?.output).toContain('unknown-outcome');
      expect(server.calls.length).toBe(callsBefore + 1);
      const journal = await crashStore.readJournal('run-crash');
      expect(journal.filter((entry) => entry.type === 'attempt-started')).toHaveLength(1);
      const [ended] = ((await crashClient.describeRun('run-crash')).agent as AgentRunDescription).elicitations;
      expect(ended?.status).toBe('ended');
    } finally {
      await crashStore.close();
    }
  });
});
