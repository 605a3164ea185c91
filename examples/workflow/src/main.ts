/**
 * Self-verifying example of a workflow (A-1, W-7): state, capability nodes and complete agent
 * nodes — a document query, two analysis agents in parallel, a join, a Plan–Executor agent that
 * writes the report and a tool that saves it — on a SQLite store that holds the workflow's
 * checkpoints and the agents' runs side by side (R-6). Offline with the scripted model; with a
 * real model configured (see docs/providers.md) it checks only what any model must respect.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createLanguageModelFromEnvironment, innerRunIdOf, type WorkflowEvent } from '@agentloom/sdk';
import { SqliteRunStore } from '@agentloom/sdk/store/sqlite';
import { offlineModel } from './offline-model.js';
import { createReportWorkflow, PLANNER_PROMPT } from './report-workflow.js';

const documentsDirectory = fileURLToPath(new URL('../data/documents', import.meta.url));

function check(condition: boolean, message: string): void {
  if (!condition) throw new Error(`check failed: ${message}`);
  console.log(`  ok  ${message}`);
}

async function main(): Promise<void> {
  const directory = mkdtempSync(join(tmpdir(), 'agentloom-workflow-'));
  const store = new SqliteRunStore({ path: join(directory, 'runs.db') });
  try {
    const realModel = await createLanguageModelFromEnvironment();
    const scripted = offlineModel();
    const model = realModel ?? scripted;
    console.log(
      realModel ? `Using the real model ${realModel.provider}/${realModel.modelId}` : 'Using the offline scripted model',
    );
    const workflow = createReportWorkflow({ store, model, documentsDirectory, outputDirectory: directory });

    const run = workflow.run({ sessionId: 'example', input: { question: 'heat pump' } });
    const events: WorkflowEvent[] = [];
    for await (const event of run.events()) {
      events.push(event);
      if (event.type === 'step-start')
        console.log(`  superstep ${event.step}: ${event.tasks.map((task) => task.node).join(', ')}`);
      if (event.type === 'task-finish') console.log(`    ${event.node} ${event.status}`);
    }
    const result = await run.result();
    console.log(`\n${result.output?.report ?? result.reason}\n`);

    check(result.status === 'succeeded', 'the workflow succeeded');
    const savedTo = result.output?.savedTo ?? '';
    check(
      existsSync(savedTo) && readFileSync(savedTo, 'utf8') === `${result.output?.report}\n`,
      'the save tool wrote the report',
    );
    const agentStarts = events.flatMap((event, index) =>
      event.type === 'agent-event' && event.event.type === 'run-start' && event.node !== 'write-report' ? [index] : [],
    );
    const firstAnalysisEnd = events.findIndex(
      (event) => event.type === 'task-finish' && (event.node === 'summarize' || event.node === 'find-risks'),
    );
    check(
      agentStarts.length === 2 && (agentStarts[1] ?? Number.POSITIVE_INFINITY) < firstAnalysisEnd,
      'both analysis agents ran in parallel',
    );
    const steps = events
      .filter((event) => event.type === 'step-start')
      .map((event) => event.tasks.map((task) => task.node).join('+'));
    check(steps.join(' > ') === 'query > summarize+find-risks > write-report > save', 'the join waited for both analyses');
    for (const [node, taskId] of [
      ['summarize', '1/summarize'],
      ['find-risks', '1/find-risks'],
      ['write-report', '2/write-report'],
    ] as const) {
      const inner = await store.getRun(innerRunIdOf(result.runId, taskId));
      check(inner?.status === 'succeeded', `agent node ${node} ran as its own run in the same store (${inner?.runId})`);
    }
    const journal = await store.readJournal(result.runId);
    const largest = Math.max(...journal.map((entry) => JSON.stringify(entry.data).length));
    check(largest < JSON.stringify(result.output).length + 1024, 'each checkpoint entry is a delta, not the whole state');

    const callsBefore = scripted.requests.length;
    const again = await workflow.run({ sessionId: 'example', runId: result.runId }).result();
    check(
      JSON.stringify(again.output) === JSON.stringify(result.output),
      'running the same run id again returns its stored result',
    );
    if (realModel) {
      console.log('workflow example (real model): checks passed');
      return;
    }
    check(scripted.requests.length === callsBefore, '...without a single model call');
    const report = result.output?.report ?? '';
    check(report.includes('18 percent') && report.includes('December'), 'the report cites the figures and the deadline');
    check(!report.includes('Rooftop solar'), 'the query kept only the heat pump documents');
    const plannerInput = scripted.requests.find((request) => request.system === PLANNER_PROMPT)?.messages[0]?.content ?? '';
    check(plannerInput.includes('Summary:') && plannerInput.includes('Risks:'), 'the report writer received both analyses');
    check(result.loops === 7, 'agent loops were charged to the workflow run: 1 + 2 + (2 + 1 + 1) = 7');
    console.log('workflow example: all checks passed');
  } finally {
    await store.close();
    rmSync(directory, { recursive: true, force: true });
  }
}

await main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
