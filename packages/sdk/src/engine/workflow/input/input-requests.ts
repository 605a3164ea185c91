import {
  InputAlreadyAnsweredError,
  InputNotFoundError,
  InvalidInputAnswerError,
  RunNotActiveError,
} from '../../../core/errors/index.js';
import { compileJsonSchema, type JsonSchema } from '../../../core/json-schema/json-schema-validator.js';
import { isUnfinished } from '../../../store/acquire-decision.js';
import type { JournalEntry, RunStore } from '../../../store/run-store.js';
import type { InputAnswer } from './input-answer.js';

/** The call-note key under which an input node saves its request (a `task-noted` entry). */
export const INPUT_NOTE_KEY = 'input';

/**
 * What an input node asks (issue 36), saved once in the journal before the run waits, so that
 * readers (the console, `RunClient.pendingInputs`) show it and a next owner waits on the same
 * deadline after a crash.
 */
export interface InputRequest {
  /** `<taskId>#input`: what an answer names. */
  interruptId: string;
  /** The question, its `{{field}}` placeholders filled from the state when it was asked. */
  question: string;
  /** The JSON Schema an answer must match. */
  schema?: JsonSchema;
  /** The answers offered; when set, an answer must be one of them. */
  choices?: unknown[];
  /** When the input's timeout outcome is recorded (epoch ms), if it has a timeout. */
  deadlineAt?: number;
  /** The value recorded as the answer when the timeout passes. */
  timeoutOutcome?: unknown;
}

/** An input a run waits for: its request, and the task and node that asked. */
export interface PendingInput extends InputRequest {
  taskId: string;
  node: string;
  /** When it was asked (epoch ms). */
  askedAt: number;
}

/** A recorded answer, as the journal holds it. */
export interface RecordedInputAnswer extends InputAnswer {
  sequence: number;
  taskId: string;
}

/** The input requests of a journal, in the order they were asked. */
export function inputRequestsOf(journal: readonly JournalEntry[]): PendingInput[] {
  const requests: PendingInput[] = [];
  for (const entry of journal) {
    if (entry.type !== 'task-noted' || entry.taskId === undefined) continue;
    const data = entry.data as { key?: string; value?: InputRequest };
    if (data.key !== INPUT_NOTE_KEY || !data.value) continue;
    requests.push({ ...data.value, taskId: entry.taskId, node: entry.taskId.split('/')[1] ?? entry.taskId, askedAt: entry.at });
  }
  return requests;
}

/** The first answer of each input, by interrupt id: the answer (exactly one is taken). */
export function inputAnswersOf(journal: readonly JournalEntry[]): Map<string, RecordedInputAnswer> {
  const answers = new Map<string, RecordedInputAnswer>();
  for (const entry of journal) {
    if (entry.type !== 'input-answered') continue;
    const data = entry.data as InputAnswer;
    if (!answers.has(data.interruptId))
      answers.set(data.interruptId, { ...data, sequence: entry.sequence, taskId: entry.taskId ?? '' });
  }
  return answers;
}

/** The inputs a journal's run still waits for: asked, not answered. */
export function pendingInputsOf(journal: readonly JournalEntry[]): PendingInput[] {
  const answers = inputAnswersOf(journal);
  return inputRequestsOf(journal).filter((request) => !answers.has(request.interruptId));
}

/** Why an answer does not fit a request: its choices, then its JSON Schema. */
export function answerProblems(request: InputRequest, value: unknown): { path: (string | number)[]; message: string }[] {
  if (request.choices && !request.choices.some((choice) => JSON.stringify(choice) === JSON.stringify(value)))
    return [{ path: [], message: `must be one of ${request.choices.map((choice) => JSON.stringify(choice)).join(', ')}` }];
  if (!request.schema) return [];
  const compiled = compileJsonSchema(request.schema);
  if (!compiled.ok) return compiled.problems.map((message) => ({ path: [], message: `the input's schema: ${message}` }));
  return compiled.validate(value);
}

/** An answer to an input, from any process. */
export interface InputAnswerRequest {
  /** The input answered; may be left out when the run waits for exactly one. */
  interruptId?: string;
  value: unknown;
  /** Who answers (stored with the answer). Default `user`. */
  answeredBy?: string;
}

/**
 * Records an answer to an input a workflow run waits for (issue 36), through the store's external
 * append, so that it works whichever process owns the run (like supplements and approval decisions,
 * S-1, K-5); the owner takes it at its next read of the journal. Exactly one answer is taken: after
 * writing, the journal is read back, and unless this answer is the first for its input (another
 * person may have answered at the same instant, or the owner recorded the timeout outcome) the
 * call fails with `InputAlreadyAnsweredError`, and the answer written stays unused. An answer that
 * does not match the input's schema or choices is refused before anything is written.
 */
export async function recordInputAnswer(
  store: RunStore,
  runId: string,
  answer: InputAnswerRequest,
): Promise<{ runId: string; interruptId: string; sequence: number }> {
  const run = await store.getRun(runId);
  if (!run || !isUnfinished(run.status)) throw new RunNotActiveError(runId, run?.status ?? 'unknown');
  const journal = await store.readJournal(runId);
  const requests = inputRequestsOf(journal);
  const answers = inputAnswersOf(journal);
  let request: PendingInput | undefined;
  if (answer.interruptId !== undefined) {
    request = requests.find((candidate) => candidate.interruptId === answer.interruptId);
    if (!request) throw new InputNotFoundError(runId, answer.interruptId);
  } else {
    const pending = requests.filter((candidate) => !answers.has(candidate.interruptId));
    if (pending.length > 1)
      throw new InputNotFoundError(
        runId,
        undefined,
        `Run ${runId} waits for ${pending.length} inputs (${pending.map((input) => input.interruptId).join(', ')}); name one.`,
      );
    // With none pending, the answer is for the input asked last: a second answer to it is refused as such.
    request = pending[0] ?? requests.at(-1);
    if (!request) throw new InputNotFoundError(runId, undefined);
  }
  const taken = answers.get(request.interruptId);
  if (taken) throw new InputAlreadyAnsweredError(runId, request.interruptId, taken.timedOut === true);
  const problems = answerProblems(request, answer.value);
  if (problems.length > 0) throw new InvalidInputAnswerError(runId, request.interruptId, problems);
  const data: InputAnswer = { interruptId: request.interruptId, value: answer.value, answeredBy: answer.answeredBy ?? 'user' };
  const { lastSequence } = await store.appendExternal({
    runId,
    entries: [{ type: 'input-answered', taskId: request.taskId, data }],
  });
  // Sequences are dense and ordered: the first answer in the journal is the one taken.
  const after = await store.readJournal(runId, { afterSequence: journal.at(-1)?.sequence ?? 0 });
  const first = inputAnswersOf([...journal, ...after]).get(request.interruptId);
  if (first && first.sequence !== lastSequence)
    throw new InputAlreadyAnsweredError(runId, request.interruptId, first.timedOut === true);
  return { runId, interruptId: request.interruptId, sequence: lastSequence };
}
