/**
 * Self-verifying example of a Plan–Executor agent: delegation, context isolation (no executor
 * sees the planner's prompt or history) and a parallel join. Offline with the scripted model; with
 * a real model configured (see docs/providers.md) it checks only what any model must respect.
 */
import { fileURLToPath } from 'node:url';
import { type AgentRunEvent, createLanguageModelFromEnvironment, MemoryRunStore } from '@agentloom/sdk';
import { createTeam, offlineModel, PLANNER_PROMPT } from './team.js';

const knowledgePath = fileURLToPath(new URL('../data/knowledge.md', import.meta.url));
const question = 'Give me a short brief on solar and wind power.';

function check(condition: boolean, message: string): void {
  if (!condition) throw new Error(`check failed: ${message}`);
  console.log(`  ok  ${message}`);
}

async function main(): Promise<void> {
  const realModel = await createLanguageModelFromEnvironment();
  const scripted = offlineModel();
  const model = realModel ?? scripted;
  console.log(realModel ? `Using the real model ${realModel.provider}/${realModel.modelId}` : 'Using the offline scripted model');
  const team = createTeam({ store: new MemoryRunStore(), model, knowledgePath });
  const run = team.run({ sessionId: 'example', input: question });
  const events: AgentRunEvent[] = [];
  for await (const event of run.events()) {
    events.push(event);
    if (event.type === 'task-start') console.log(`  ->  ${event.role} task ${event.taskId} started`);
    if (event.type === 'task-finish') console.log(`  <-  ${event.role} task ${event.taskId} ${event.status}`);
  }
  const result = await run.result();
  console.log(`\n${result.output ?? result.reason}\n`);
  check(result.status === 'succeeded', 'the run succeeded');
  if (realModel) {
    console.log('plan-executor example (real model): checks passed');
    return;
  }
  check(result.output?.startsWith('Solar and wind, in brief') === true, 'the planner answered from the summary');
  const executorRequests = scripted.requests.filter((request) => request.system !== PLANNER_PROMPT);
  check(executorRequests.length === 5, 'executors made their own model calls (2 researchers × 2 loops + 1 summary)');
  check(
    executorRequests.every(
      (request) => !JSON.stringify(request).includes(PLANNER_PROMPT) && !JSON.stringify(request).includes(question),
    ),
    "no executor request contains the planner's prompt or the user's question (L-5)",
  );
  const starts = events.flatMap((event, index) => (event.type === 'task-start' && event.role === 'researcher' ? [index] : []));
  const firstEnd = events.findIndex((event) => event.type === 'task-finish');
  check(starts.length === 2 && (starts[1] ?? Number.POSITIVE_INFINITY) < firstEnd, 'both researchers ran in parallel');
  const plannerCalls = scripted.requests.filter((request) => request.system === PLANNER_PROMPT);
  const joined = plannerCalls[1]?.messages.filter((message) => message.role === 'tool') ?? [];
  check(joined.length === 2, "the planner's next call received both research results at once (batch join)");
  check(result.loops === 8, 'planner and executors shared one loop budget: 3 + 4 + 1 = 8 loops');
  console.log('plan-executor example: all checks passed');
}

await main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
