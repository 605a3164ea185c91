import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { MemoryRunStore, type WorkflowEvent } from '@agentloom/sdk';
import { offlineModel } from '../../../examples/workflow/src/offline-model.js';
import { createReportWorkflow } from '../../../examples/workflow/src/report-workflow.js';
import { exampleDocumentsDirectory } from './workflow-fixture.js';

/**
 * What a run of the seeds' example workflow (P-7.5) comes to, in values that do not depend on
 * where it ran: its status, report, the saved file's name and content, its supersteps and loops.
 * A platform run of the example (over HTTP, or from the console's page) must equal the example's
 * own run in process.
 */
export interface ExampleOutcome {
  status: string;
  report: string;
  savedAs: string;
  saved: string;
  steps: string;
  loops: number;
}

/** Runs `examples/workflow` in process, as its own code builds it, saving into `outputDirectory`: the value to reproduce. */
export async function runExampleInProcess(outputDirectory: string): Promise<ExampleOutcome> {
  const workflow = createReportWorkflow({
    store: new MemoryRunStore(),
    model: offlineModel(),
    documentsDirectory: exampleDocumentsDirectory,
    outputDirectory,
  });
  const run = workflow.run({ sessionId: 'example', input: { question: 'heat pump' } });
  const finished: { step: number; node: string }[] = [];
  for await (const event of run.events() as AsyncIterable<WorkflowEvent>)
    if (event.type === 'task-finish') finished.push({ step: event.step, node: event.node });
  const result = await run.result();
  const output = result.output as { report: string; savedTo: string };
  return {
    status: result.status,
    report: output.report,
    savedAs: basename(output.savedTo),
    saved: readFileSync(output.savedTo, 'utf8'),
    steps: stepsOf(finished),
    loops: result.loops,
  };
}

/** The supersteps as `node+node > node`, from finished tasks (parallel ones sorted by name). */
export function stepsOf(finished: readonly { step: number; node: string }[]): string {
  const byStep = new Map<number, string[]>();
  for (const task of finished) byStep.set(task.step, [...(byStep.get(task.step) ?? []), task.node]);
  return [...byStep.entries()]
    .sort(([a], [b]) => a - b)
    .map(([, nodes]) => nodes.sort().join('+'))
    .join(' > ');
}
