import { z } from 'zod';
import type { LanguageModel } from '../model/language-model.js';

/**
 * One message of a team's shared transcript, as saved in the run's journal. A message from a
 * member is data for the other members, never an instruction with the user's authority (N-12).
 */
export const teamMessageSchema = z.strictObject({
  /** The member turn that wrote it (1-based); 0 for the user's task. */
  turn: z.number().int().min(0),
  /** A member's name, `user`, or `orchestrator`. */
  speaker: z.string(),
  text: z.string(),
  /** Set when the speaker handed the final answer over to this member in this message. */
  handoffTo: z.string().optional(),
});
export type TeamMessage = z.output<typeof teamMessageSchema>;

/** A member's private note: kept beside the shared transcript, shown to that member only. */
export const privateNoteSchema = z.strictObject({ member: z.string(), turn: z.number().int().min(0), text: z.string() });
export type PrivateNote = z.output<typeof privateNoteSchema>;

/** Why a team stopped: a typed value (S-11), never message text. */
export const teamStopReasonSchema = z.enum([
  /** The member that owns the answer answered (handoff), or the orchestrator judged the request satisfied. */
  'final-answer',
  'max-turns',
  'max-messages',
  'text-mention',
  'token-budget',
  'cost-budget',
  'timeout',
  'handoff-to-user',
  'external-stop',
  /** More handoffs than the topology's `maxHandoffs`: a handoff loop, cut (N-12). */
  'handoff-limit',
  /** The orchestrator stalled again after its last allowed re-plan. */
  'replan-limit',
  /** Every vote was cast, every task of the board is done, the evaluator passed, the review ended. */
  'completed',
  /** The evaluator–optimizer loop reached its iteration limit without a pass. */
  'iteration-limit',
]);
export type TeamStopReason = z.output<typeof teamStopReasonSchema>;

/** How and when a team ended, as saved in its journal and returned in its output. */
export const teamTerminationSchema = z.strictObject({
  reason: teamStopReasonSchema,
  /** Every condition that held when an `and`/`or` termination fired (the reason is the first). */
  conditions: z.array(teamStopReasonSchema),
  /** Member turns taken when it ended. */
  turns: z.number().int().min(0),
});
export type TeamTermination = z.output<typeof teamTerminationSchema>;

/** A member of a team: a model with its instructions (in code; the definition names the model). */
export interface TeamMember {
  /** Unique in the team; the name other members and the selector use. */
  name: string;
  /** What the member does: shown to selectors, orchestrators and handoff tools. */
  description?: string;
  /** The member's system prompt. */
  instructions: string;
  model: LanguageModel;
  /**
   * Context only this member sees, beside the shared transcript (declared per member, N-12):
   * notes of its own that the others never read.
   */
  privateContext?: readonly string[];
}

/** The usage field's value: token counts of the whole team, all members and selectors together. */
export const teamUsageSchema = z.strictObject({
  inputTokens: z.number(),
  outputTokens: z.number(),
  totalTokens: z.number(),
});
