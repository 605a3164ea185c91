/**
 * The example workflow built from `definitions/market-report.json` (its three agents inline)
 * behaves exactly like the one built in code: same supersteps, same model requests for every
 * agent role, same report, same loops charged, the same inner agent runs in the same store.
 */

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { innerRunIdOf, MemoryRunStore, type StateDefinition, type Workflow } from '@agentloom/sdk';
import { afterAll, describe, expect, it } from 'vitest';
import { offlineModel } from '../src/offline-model.js';
import { createReportWorkflow, createReportWorkflowFromDefinition, type ReportWorkflowOptions } from '../src/report-workflow.js';

const documentsDirectory = fileURLToPath(new URL('../data/documents', import.meta.url));
const directories: string[] = [];
afterAll(() => {
  for (const directory of directories) rmSync(directory, { recursive: true, force: true });
});

async function runWith(build: (options: ReportWorkflowOptions) => Workflow<StateDefinition>) {
  const outputDirectory = mkdtempSync(join(tmpdir(), 'agentloom-workflow-definition-'));
  directories.push(outputDirectory);
  const model = offlineModel();
  const store = new MemoryRunStore();
  const workflow = build({ store, model, documentsDirectory, outputDirectory });
  const run = workflow.run({ sessionId: 'example', input: { question: 'heat pump' } });
  const steps: string[] = [];
  for await (const event of run.events()) {
    if (event.type === 'step-start') steps.push(event.tasks.map((task) => task.node).join('+'));
  }
  const result = await run.result();
  const output = result.output as { report?: string; savedTo?: string } | undefined;
  const inner = await Promise.all(
    ['1/summarize', '1/find-risks', '2/write-report'].map(
      async (taskId) => (await store.getRun(innerRunIdOf(result.runId, taskId)))?.status,
    ),
  );
  return {
    result: { status: result.status, loops: result.loops, report: output?.report, savedAs: basename(output?.savedTo ?? '') },
    saved: readFileSync(output?.savedTo ?? '', 'utf8'),
    steps,
    inner,
    // Parallel agents may reach the model in either order: compare the requests as a set.
    requests: model.requests.map((request) => JSON.stringify(request)).sort(),
  };
}

describe('workflow example from its JSON definition', () => {
  it('gets the same result as the workflow built in code', async () => {
    const fromCode = await runWith(createReportWorkflow as (options: ReportWorkflowOptions) => Workflow<StateDefinition>);
    const fromDefinition = await runWith(createReportWorkflowFromDefinition);
    expect(fromCode.result.status).toBe('succeeded');
    expect(fromCode.result.loops).toBe(7);
    expect(fromCode.steps.join(' > ')).toBe('query > summarize+find-risks > write-report > save');
    expect(fromCode.inner).toEqual(['succeeded', 'succeeded', 'succeeded']);
    expect(fromDefinition).toEqual(fromCode);
  });
});
