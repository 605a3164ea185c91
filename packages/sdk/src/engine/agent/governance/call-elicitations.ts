import { abortableSleep } from '../../../core/abortable-sleep.js';
import type { ElicitationAnsweredData } from '../agent-journal.js';
import type { OperationState } from '../agent-state.js';
import type { RunContext } from '../run-context.js';

const POLL_MS = 100;

/** A question a running call puts to the run's user (`ToolExecutionContext.requestElicitation`). */
export interface CallElicitationQuestion {
  /** Stable within the call: the same key after a crash finds the same question. */
  key: string;
  server: string;
  message: string;
  mode: 'form' | 'url';
  requestedSchema?: Record<string, unknown>;
  url?: string;
}

/** The user's answer to an elicitation. */
export type CallElicitationAnswer = Pick<ElicitationAnsweredData, 'action' | 'content' | 'answeredBy'>;

/**
 * An MCP server's question to the run's user (N-8, ADR 0038). Journaled once
 * (`elicitation-requested`, id `<operationId>#<key>`) with the requested schema, so every process
 * sees the run waiting for it (`describeRun`, the `elicitation-request` event); answered only by
 * `RunClient.answerElicitation` from any machine — a person's answer, checked against the schema;
 * no model, supplement or peer message answers it — and cancelled at the approval timeout. The
 * wait is bounded by the run's deadline and stop. An answer already recorded is returned at once.
 */
export async function requestCallElicitation(
  context: RunContext,
  operationId: string,
  question: CallElicitationQuestion,
): Promise<CallElicitationAnswer> {
  const { durable, governance } = context;
  const elicitationId = `${operationId}#${question.key}`;
  const operation = () => durable.state.operations.get(operationId) as OperationState;
  const asked = () => durable.state.elicitations.get(elicitationId);
  if (!asked()) {
    await durable.commit((state) =>
      state.elicitations.has(elicitationId)
        ? undefined
        : {
            entries: [
              {
                type: 'elicitation-requested',
                taskId: operation().taskId,
                data: {
                  elicitationId,
                  operationId,
                  toolName: operation().call.name,
                  server: question.server,
                  message: question.message,
                  mode: question.mode,
                  ...(question.requestedSchema ? { requestedSchema: question.requestedSchema } : {}),
                  ...(question.url ? { url: question.url } : {}),
                  // Fixed now, so that a takeover never restarts the wait.
                  expiresAt: Math.min(context.now() + governance.approvalTimeoutMs, durable.state.deadlineAt),
                },
              },
            ],
          },
    );
  }
  const giveUpAt = asked()?.expiresAt ?? durable.state.deadlineAt;
  while (!asked()?.answered) {
    context.control.throwIfInterrupted();
    if (context.now() >= giveUpAt) {
      await durable.commit((state) =>
        state.elicitations.get(elicitationId)?.answered
          ? undefined
          : {
              entries: [
                {
                  type: 'elicitation-answered',
                  taskId: operation().taskId,
                  data: { elicitationId, action: 'cancel', answeredBy: 'timeout' },
                },
              ],
            },
      );
      break;
    }
    await abortableSleep(Math.min(POLL_MS, giveUpAt - context.now()), context.control.signal);
    await durable.sync();
  }
  return asked()?.answered as CallElicitationAnswer;
}
