import type { Message, Usage } from '../core/messages.js';
import { emptyUsage } from '../core/messages.js';
import type { RetryPolicy } from '../core/retry-policy.js';
import { NodeFailure } from '../engine/workflow/nodes/workflow-node.js';
import { callModel } from '../model/call-model.js';
import type { LanguageModel, ModelRequest, ModelResponse, ToolDefinition } from '../model/language-model.js';
import type { PrivateNote, TeamMember, TeamMessage } from './team-types.js';

/** What one model call of a team step needs from the step: its signal and the run's deadline. */
export interface CallScope {
  signal: AbortSignal;
  deadlineAt: number;
  retry: RetryPolicy;
}

/** The model policy of a team's calls: transient failures retried like an agent's (X-5). */
export const TEAM_MODEL_RETRY: RetryPolicy = { enabled: true, attempts: 3, waitMs: 500 };

/** One complete model response (S-7: only complete responses are acted on) and its usage. */
export async function callTeamModel(model: LanguageModel, request: ModelRequest, scope: CallScope): Promise<ModelResponse> {
  return callModel(model, request, {
    signal: scope.signal,
    deadlineAt: scope.deadlineAt,
    firstOutputTimeoutMs: 120_000,
    stallTimeoutMs: 120_000,
    retry: scope.retry,
  });
}

/**
 * A member's view of the conversation: the task, then each visible message — its own as the
 * assistant's, everybody else's as quoted text from a named speaker. Another member's message is
 * rendered as data in a user turn, never as a system instruction (N-12: a peer's words never
 * carry the user's authority), and a handoff is rendered as text, so the receiver never sees a
 * tool call of a tool it does not have.
 */
export function memberMessages(member: string, task: string, visible: readonly TeamMessage[], instruction?: string): Message[] {
  const messages: Message[] = [{ role: 'user', content: task }];
  for (const message of visible) {
    if (message.speaker === member) {
      messages.push({ role: 'assistant', content: message.text });
      continue;
    }
    const handoff = message.handoffTo ? ` (handed over to ${message.handoffTo})` : '';
    messages.push({ role: 'user', content: `[${message.speaker}]${handoff}: ${message.text}` });
  }
  if (instruction !== undefined) messages.push({ role: 'user', content: `[orchestrator]: ${instruction}` });
  return messages;
}

/** The member's system prompt: its instructions, then its private context and its own private notes. */
export function memberSystem(member: TeamMember, notes: readonly PrivateNote[]): string {
  const own = [...(member.privateContext ?? []), ...notes.filter((note) => note.member === member.name).map((note) => note.text)];
  return own.length === 0
    ? member.instructions
    : `${member.instructions}\n\nPrivate notes (yours only):\n${own.map((text) => `- ${text}`).join('\n')}`;
}

/** The name of the tool that hands the final answer to `target`. */
export function handoffToolName(target: string): string {
  return `transfer_to_${target}`;
}

/** The handoff tools offered to a member: one per target it may hand over to. */
export function handoffTools(targets: readonly string[], describe: (target: string) => string | undefined): ToolDefinition[] {
  return targets.map((target) => ({
    name: handoffToolName(target),
    description: `Hand the conversation and the ownership of the final answer to ${target}.${describe(target) ? ` ${describe(target)}` : ''}`,
    inputSchema: { type: 'object', properties: { reason: { type: 'string' } }, additionalProperties: false },
  }));
}

/** Usage of a response, or zero: exactly the three counts the team's usage field keeps. */
export function usageOf(response: ModelResponse | undefined): Usage {
  if (!response) return emptyUsage();
  const { inputTokens, outputTokens, totalTokens } = response.usage;
  // The team's steps vouch for their writes (they are not parsed again): a count that is not a number fails here.
  if (!(Number.isFinite(inputTokens) && Number.isFinite(outputTokens) && Number.isFinite(totalTokens))) {
    throw new NodeFailure({
      kind: 'invalid-result',
      message: `the model reported a usage that is not a count: ${JSON.stringify(response.usage)}`,
    });
  }
  return { inputTokens, outputTokens, totalTokens };
}
