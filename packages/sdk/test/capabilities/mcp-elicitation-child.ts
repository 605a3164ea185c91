/**
 * Child process of the elicitation crash test: runs (or resumes) one ReAct run whose only call is
 * the real MCP tool `book_table` (the server lives in the parent, at `ELICIT_URL`), with its
 * questions routed to the run (ADR 0038) and retry on. With `ELICIT_FREEZE=1` it freezes once the
 * run has journaled the server's question, after printing `FROZEN`, for the parent to SIGKILL it.
 * Prints `RESULT <json>` at the end.
 */
import { connectMcpServer } from '../../src/capabilities/mcp/index.js';
import { Agent } from '../../src/index.js';
import { SqliteRunStore } from '../../src/store/sqlite/index.js';
import { ScriptedModel } from '../../src/testing/index.js';
import { freezeHere, waitOutOwner } from '../helpers/child-process.js';

const environment = process.env;
const server = await connectMcpServer({
  name: 'restaurant',
  transport: 'streamable-http',
  url: environment.ELICIT_URL as string,
  approvals: 'run',
});
const model = new ScriptedModel({
  respond: (request) => {
    const result = request.messages.find((message) => message.role === 'tool');
    return result
      ? { text: `Finished: ${result.content}` }
      : { toolCalls: [{ name: 'restaurant__book_table', arguments: { date: 'Friday' } }] };
  },
});
const store = new SqliteRunStore({ path: environment.ELICIT_STORE as string });
const agent = new Agent({
  name: 'booking',
  mode: 'react',
  model,
  prompt: 'You book tables.',
  tools: server.tools,
  store,
  leaseMs: 300,
  execution: { toolTimeoutMs: 20_000, retry: { enabled: true, attempts: 3, waitMs: 50 } },
});

for (;;) {
  const run = agent.run({ sessionId: 'booking-session', runId: environment.ELICIT_RUN_ID as string, input: 'Book Friday.' });
  const watch = (async () => {
    for await (const event of run.events())
      if (event.type === 'elicitation-request' && environment.ELICIT_FREEZE === '1') freezeHere('question journaled');
  })();
  try {
    const result = await run.result();
    await watch;
    process.stdout.write(`RESULT ${JSON.stringify(result)}\n`);
    break;
  } catch (error) {
    await waitOutOwner(error);
  }
}
await server.close();
await store.close();
