import type { RunDescription } from '@agentloom/sdk';
import { readRun } from '../../adapters/database/repositories/run-repository.js';
import type { AppRow } from '../../adapters/database/schema.js';
import { appDeletingError, InvalidRequestError, NotFoundError } from '../../domain/errors.js';
import type { PlatformContext } from '../context.js';
import { type RunLogQuery, runLogPage } from './run-log.js';
import { apiStatusOf, runView } from './run-status.js';
import { agentRunOfTask, describeWorkflowTasks } from './workflow-view.js';

/**
 * The run use cases after a run is started (`create-run.ts`): read it, its view, its log, its
 * inner agent runs; wait for its end; supplement it; decide its approvals. Every status comes
 * from the SDK store through `RunClient`; the SDK's refusals (a run ended, unknown, an unknown
 * approval) propagate as they are, and the HTTP error table answers them.
 */
export type RunContext = Pick<PlatformContext, 'database' | 'runClient'>;

/**
 * What the SDK store says of a run now. A workflow keeps its output fields in its journal's end
 * record, not in the run's result: a succeeded workflow run's output is read from there.
 */
export async function describeRun(context: Pick<PlatformContext, 'runClient'>, runId: string): Promise<RunDescription> {
  const description = await context.runClient.describeRun(runId);
  if (description.kind !== 'workflow' || description.status !== 'succeeded' || !description.result) return description;
  const events = await context.runClient.readEvents(runId, { afterSequence: description.lastSequence - 1 });
  const finish = events.find((event) => event.type === 'workflow-finish');
  if (finish?.type !== 'workflow-finish' || finish.result.output === undefined) return description;
  return { ...description, result: { ...description.result, output: finish.result.output as unknown as string } };
}

/** The API status of a run now (`queued`, `running`, `stopping`, …). */
export async function runStatus(context: Pick<PlatformContext, 'runClient'>, runId: string) {
  return apiStatusOf(await describeRun(context, runId));
}

/** Waits up to `seconds` for the run to end, by following its journal; answers whether it ended. */
export async function waitForRunEnd(
  context: Pick<PlatformContext, 'runClient'>,
  runId: string,
  seconds: number,
): Promise<boolean> {
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), seconds * 1000);
  try {
    for await (const event of context.runClient.follow(runId, { signal: abort.signal }))
      if (event.type === 'run-finish' || event.type === 'workflow-finish') return true;
    return false;
  } finally {
    clearTimeout(timer);
  }
}

/** A run as the API shows it: its index row and what the SDK store says of it now. */
export async function readRunView(context: RunContext, runId: string) {
  const row = await readRun(context.database, runId);
  return runView(row, await describeRun(context, runId));
}

/** The run view (P-10); a workflow run adds its node tasks (`workflow.tasks`). */
export async function readRunDetails(
  context: Pick<PlatformContext, 'runClient'>,
  runId: string,
): Promise<Record<string, unknown>> {
  const description = await describeRun(context, runId);
  if (description.kind !== 'workflow') return description as unknown as Record<string, unknown>;
  const tasks = await describeWorkflowTasks(context.runClient, runId);
  return { ...description, workflow: { tasks } } as unknown as Record<string, unknown>;
}

/**
 * The run view of the inner agent run of a workflow's agent task (`taskId`, e.g. `1/summarize`):
 * inner runs are reached through their workflow run only (NOT-24).
 */
export async function readAgentTaskView(context: Pick<PlatformContext, 'runClient'>, runId: string, taskId: string | undefined) {
  if (!taskId) throw new InvalidRequestError('task-id-required', 'Name the agent task: ?taskId=<step>/<node>.');
  const agentRunId = await agentRunOfTask(context.runClient, runId, taskId);
  if (!agentRunId) throw new NotFoundError('task-not-found', 'The run has no agent task with this id.');
  return (await describeRun(context, agentRunId)) as unknown as Record<string, unknown>;
}

/** One page of the app's run log, newest first; a cursor that cannot be read is an invalid request `invalid-cursor`. */
export async function readRunLog(context: Pick<PlatformContext, 'runClient'>, appId: string, query: RunLogQuery) {
  const page = await runLogPage(context.runClient, appId, query).catch((error: unknown) => {
    throw new InvalidRequestError('invalid-cursor', (error as Error).message);
  });
  return {
    runs: page.items.map((item) => ({
      id: item.runId,
      sessionId: item.sessionId,
      status: apiStatusOf({ status: item.status }),
      reason: item.result?.reason ?? null,
      loops: item.loops,
      debug: item.metadata.debug === 'true',
      createdAt: new Date(item.createdAt).toISOString(),
      updatedAt: new Date(item.updatedAt).toISOString(),
    })),
    ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}),
  };
}

/** Adds a user message to an active run (S-1…S-4); refused while its app is being deleted. */
export async function supplementRun(context: Pick<PlatformContext, 'runClient'>, app: AppRow, runId: string, text: string) {
  if (app.state !== 'active') throw appDeletingError();
  const receipt = await context.runClient.supplement(runId, text);
  return { runId: receipt.runId, supplementId: receipt.supplementId };
}

/** Records a decision on a pending approval (K-5); the first decision wins. */
export function decideRunApproval(
  context: Pick<PlatformContext, 'runClient'>,
  runId: string,
  decision: { approvalId: string; approved: boolean; decidedBy: string; reason?: string | undefined },
) {
  const { reason, ...rest } = decision;
  return context.runClient.decideApproval(runId, { ...rest, ...(reason !== undefined ? { reason } : {}) });
}

/**
 * Answers an input a workflow run waits for (issue 36), from any API process: the SDK checks it
 * against the input's schema and choices and journals it through the external append; whichever
 * worker owns the run goes on with it. Exactly one answer is taken (a second is refused, 409).
 * Refused while the run's app is being deleted.
 */
export async function answerRunInput(
  context: Pick<PlatformContext, 'runClient'>,
  app: AppRow,
  runId: string,
  answer: { interruptId?: string | undefined; value: unknown; answeredBy: string },
) {
  if (app.state !== 'active') throw appDeletingError();
  const { interruptId, ...rest } = answer;
  return context.runClient.answerInput(runId, { ...rest, ...(interruptId !== undefined ? { interruptId } : {}) });
}

/**
 * A person's answer to an MCP server's question a run waits for (ADR 0038), from any API process:
 * the SDK checks accepted content against the requested schema and journals it once; whichever
 * worker owns the run goes on with it. Refused while the run's app is being deleted.
 */
export async function answerRunElicitation(
  context: Pick<PlatformContext, 'runClient'>,
  app: AppRow,
  runId: string,
  answer: {
    elicitationId: string;
    action: 'accept' | 'decline' | 'cancel';
    content?: Record<string, unknown> | undefined;
    answeredBy: string;
  },
) {
  if (app.state !== 'active') throw appDeletingError();
  const { content, ...rest } = answer;
  return context.runClient.answerElicitation(runId, { ...rest, ...(content !== undefined ? { content } : {}) });
}
