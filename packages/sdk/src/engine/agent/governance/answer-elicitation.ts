import {
  ElicitationNotFoundError,
  ElicitationNotPendingError,
  InvalidElicitationAnswerError,
  RunNotActiveError,
} from '../../../core/errors/index.js';
import { compileJsonSchema, type JsonSchemaProblem } from '../../../core/json-schema/json-schema-validator.js';
import { isUnfinished } from '../../../store/acquire-decision.js';
import type { JournalEntry, RunStore } from '../../../store/run-store.js';
import { agentJournal, type ElicitationAnsweredData, type ElicitationRequestedData } from '../agent-journal.js';

/** A person's answer to an elicitation (ADR 0038), from any process. */
export interface ElicitationAnswerRequest {
  elicitationId: string;
  action: 'accept' | 'decline' | 'cancel';
  /** The form's values (accept only): checked against the requested schema after its defaults are applied. */
  content?: Record<string, unknown>;
  /** Who answers (stored with the answer). Default `user`. */
  answeredBy?: string;
}

type Content = NonNullable<ElicitationAnsweredData['content']>;

/**
 * The content with the requested schema's defaults filled in for the fields it leaves out
 * (SEP-1034: the MCP SDK's `applyDefaults` does the same on the wire), so that what is journaled
 * and checked is what the server receives.
 */
export function withSchemaDefaults(schema: Record<string, unknown> | undefined, content: Record<string, unknown>) {
  const filled: Record<string, unknown> = { ...content };
  const properties = (schema?.properties ?? {}) as Record<string, { default?: unknown }>;
  for (const [name, property] of Object.entries(properties))
    if (filled[name] === undefined && property && typeof property === 'object' && property.default !== undefined)
      filled[name] = property.default;
  return filled;
}

/**
 * Why accepted content does not fit an elicitation: MCP form content is a flat object of strings,
 * numbers, booleans and string lists (multi-select enums), and must match the requested schema.
 */
export function elicitationContentProblems(schema: Record<string, unknown> | undefined, content: unknown): JsonSchemaProblem[] {
  if (typeof content !== 'object' || content === null || Array.isArray(content))
    return [{ path: [], message: 'must be an object of the form’s fields' }];
  const problems: JsonSchemaProblem[] = [];
  for (const [name, value] of Object.entries(content)) {
    const flat =
      ['string', 'number', 'boolean'].includes(typeof value) ||
      (Array.isArray(value) && value.every((item) => typeof item === 'string'));
    if (!flat) problems.push({ path: [name], message: 'must be a string, number, boolean or list of strings' });
  }
  if (problems.length > 0 || !schema) return problems;
  const compiled = compileJsonSchema(schema);
  if (!compiled.ok) return compiled.problems.map((message) => ({ path: [], message: `the requested schema: ${message}` }));
  return compiled.validate(content);
}

/** The elicitations a journal asked, with whether each is still pending. */
export function elicitationsOf(journal: readonly JournalEntry[]) {
  const asked = new Map<string, { request: ElicitationRequestedData; taskId: string; answered?: ElicitationAnsweredData }>();
  const finished = new Set<string>();
  for (const entry of journal) {
    const record = agentJournal.recordOf(entry);
    if (record.type === 'elicitation-requested' && !asked.has(record.data.elicitationId))
      asked.set(record.data.elicitationId, { request: record.data, taskId: record.taskId });
    else if (record.type === 'elicitation-answered') {
      const question = asked.get(record.data.elicitationId);
      if (question && !question.answered && !finished.has(question.request.operationId)) question.answered = record.data;
    } else if (record.type === 'operation-finished') finished.add(record.data.operationId);
  }
  return { asked, finished };
}

/**
 * Records a person's answer to an elicitation through the store's external append, so that it
 * works whichever process owns the run (like approval decisions, K-5). Refused, with nothing
 * written: an elicitation the run never asked (`ElicitationNotFoundError`), one already answered
 * or whose call has ended (`ElicitationNotPendingError`), accepted content that does not match the
 * requested schema once its defaults are applied (`InvalidElicitationAnswerError`), and any answer
 * once the run ended (`RunNotActiveError`). Of two racing answers the owner applies the first;
 * the second is refused when the journal read back shows it was not first.
 */
export async function recordElicitationAnswer(
  store: RunStore,
  runId: string,
  answer: ElicitationAnswerRequest,
): Promise<{ runId: string; elicitationId: string; sequence: number }> {
  const run = await store.getRun(runId);
  if (!run || !isUnfinished(run.status)) throw new RunNotActiveError(runId, run?.status ?? 'unknown');
  const journal = await store.readJournal(runId);
  const { asked, finished } = elicitationsOf(journal);
  const question = asked.get(answer.elicitationId);
  if (!question) throw new ElicitationNotFoundError(runId, answer.elicitationId);
  if (question.answered) throw new ElicitationNotPendingError(runId, answer.elicitationId, 'answered');
  if (finished.has(question.request.operationId)) throw new ElicitationNotPendingError(runId, answer.elicitationId, 'call-ended');
  let content: Content | undefined;
  if (answer.action === 'accept' && question.request.mode === 'form') {
    const filled = withSchemaDefaults(question.request.requestedSchema, answer.content ?? {});
    const problems = elicitationContentProblems(question.request.requestedSchema, filled);
    if (problems.length > 0) throw new InvalidElicitationAnswerError(runId, answer.elicitationId, problems);
    content = filled as Content;
  }
  const data: ElicitationAnsweredData = {
    elicitationId: answer.elicitationId,
    action: answer.action,
    answeredBy: answer.answeredBy ?? 'user',
    ...(content ? { content } : {}),
  };
  const { lastSequence } = await store.appendExternal({
    runId,
    entries: [{ type: 'elicitation-answered', taskId: question.taskId, data }],
  });
  // Sequences are dense and ordered: only an answer before the call's end, and the first, is taken.
  const after = await store.readJournal(runId, { afterSequence: journal.at(-1)?.sequence ?? 0 });
  for (const entry of after) {
    if (entry.sequence >= lastSequence) break;
    const record = agentJournal.recordOf(entry);
    if (record.type === 'elicitation-answered' && record.data.elicitationId === answer.elicitationId)
      throw new ElicitationNotPendingError(runId, answer.elicitationId, 'answered');
    if (record.type === 'operation-finished' && record.data.operationId === question.request.operationId)
      throw new ElicitationNotPendingError(runId, answer.elicitationId, 'call-ended');
  }
  return { runId, elicitationId: answer.elicitationId, sequence: lastSequence };
}
