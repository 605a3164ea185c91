/**
 * Child process of the MCP crash tests: runs (or resumes) one ReAct run whose only call is a real
 * MCP tool, on a SQLite store. With `MCP_CRASH_FREEZE=1` it freezes in the middle of that call
 * (stdio: while the server works; HTTP task: once the task is in the ledger) after printing
 * `FROZEN`, for the parent to SIGKILL it. Prints `RESULT <json>` at the end.
 */
import { connectMcpServer, FileMcpTaskLedger } from '../../src/capabilities/mcp/index.js';
import { Agent } from '../../src/index.js';
import { SqliteRunStore } from '../../src/store/sqlite/index.js';
import { ScriptedModel } from '../../src/testing/index.js';
import { waitOutOwner } from '../helpers/child-process.js';
import { everythingServer } from './capability-harness.js';

const environment = process.env;
const mode = environment.MCP_CRASH_MODE as 'stdio' | 'http-task';
const ledger = new FileMcpTaskLedger(environment.MCP_CRASH_LEDGER as string);
const server =
  mode === 'stdio'
    ? await connectMcpServer({
        name: 'everything',
        transport: 'stdio',
        command: process.execPath,
        args: [everythingServer, 'stdio', `--agentloom-test=${environment.MCP_CRASH_MARKER}`],
      })
    : await connectMcpServer({
        name: 'everything',
        transport: 'streamable-http',
        url: environment.MCP_CRASH_URL as string,
        taskLedger: ledger,
      });

const call =
  mode === 'stdio'
    ? { name: 'everything__trigger-long-running-operation', arguments: { duration: 3, steps: 3 } }
    : { name: 'everything__simulate-research-query', arguments: { topic: 'durable runs' } };
const model = new ScriptedModel({
  respond: (request) => {
    const result = request.messages.find((message) => message.role === 'tool');
    return result ? { text: `Finished: ${result.content}` } : { toolCalls: [call] };
  },
});
const store = new SqliteRunStore({ path: environment.MCP_CRASH_STORE as string });
const agent = new Agent({
  name: 'mcp-crash',
  mode: 'react',
  model,
  prompt: 'You call one MCP tool.',
  tools: server.tools,
  store,
  leaseMs: 1_000,
  execution: { toolTimeoutMs: 20_000, retry: { enabled: environment.MCP_CRASH_RETRY === '1', attempts: 2, waitMs: 50 } },
});

function freeze(label: string): void {
  process.stdout.write(`FROZEN ${label}\n`);
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 60_000);
}

for (;;) {
  const run = agent.run({
    sessionId: 'mcp-crash-session',
    runId: environment.MCP_CRASH_RUN_ID as string,
    input: 'Call the tool.',
  });
  const watch = (async () => {
    for await (const event of run.events()) {
      if (event.type !== 'tool-call-start' || environment.MCP_CRASH_FREEZE !== '1') continue;
      process.stdout.write(`IN-CALL ${event.operationId}\n`);
      if (mode === 'stdio') {
        await new Promise((resolve) => setTimeout(resolve, 300));
        freeze('stdio call in flight');
      } else {
        while (!(await ledger.get(event.operationId))) await new Promise((resolve) => setTimeout(resolve, 20));
        freeze('task created');
      }
    }
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
