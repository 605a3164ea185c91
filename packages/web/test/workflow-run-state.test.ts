import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createIntl } from 'react-intl';
import { describe, expect, it } from 'vitest';
import type { Translate } from '../src/i18n/index.js';
import { catalogues } from '../src/i18n/messages/all.js';
import { checkRunInput, sampleInput } from '../src/pages/workflow-run/run-input.js';
import type { WorkflowResult, WorkflowRunEvent } from '../src/runs/run-events.js';
import { type RunGraph, workflowProgressOf } from '../src/runs/workflow-progress.js';

/** The seeds' example (P-7.5): its state fields and graph, as the run page reads them from a release. */
const example = JSON.parse(
  readFileSync(fileURLToPath(new URL('../../../examples/workflow/definitions/market-report.json', import.meta.url)), 'utf8'),
) as { state: Record<string, unknown>; nodes: { name: string }[]; edges: { from: string | string[]; to: string }[] };
const graph: RunGraph = {
  nodes: example.nodes.map((node) => node.name),
  edges: example.edges.map((edge) => ({ from: typeof edge.from === 'string' ? [edge.from] : edge.from, to: edge.to })),
};

/** An event as the test writes it: the stream adds the run id and the sequence. */
type EventInput = WorkflowRunEvent extends infer Event
  ? Event extends WorkflowRunEvent
    ? Omit<Event, 'sequence' | 'runId'>
    : never
  : never;

/** Builds a stream of events with dense sequences, as the platform's SSE sends them. */
function stream(...events: EventInput[]): WorkflowRunEvent[] {
  return events.map((event, index) => ({ ...event, runId: 'run-1', sequence: index + 1 }) as WorkflowRunEvent);
}
const start: EventInput = { type: 'workflow-start', sessionId: 'session-1', resumed: false, epoch: 1 };
const statuses = (events: WorkflowRunEvent[]) =>
  Object.fromEntries([...workflowProgressOf(events, graph).nodes].map(([name, state]) => [name, state.status]));

describe("a workflow run's node statuses, folded from its events", () => {
  it('are all pending before the run starts, and START fires its targets once it does', () => {
    expect(statuses([])).toEqual({
      query: 'pending',
      summarize: 'pending',
      'find-risks': 'pending',
      'write-report': 'pending',
      save: 'pending',
    });
    expect(statuses(stream(start))).toMatchObject({ query: 'running', summarize: 'pending' });
  });

  it('show agent nodes bound to their inner runs as running, and a join waits for all of its sources', () => {
    const events = stream(
      start,
      { type: 'task-finish', taskId: '0/query', node: 'query', step: 0, status: 'succeeded' },
      {
        type: 'agent-invoke',
        taskId: '1/summarize',
        node: 'summarize',
        step: 1,
        agentRunId: 'inner-1',
        agentSessionId: 'inner-session-1',
      },
      {
        type: 'agent-invoke',
        taskId: '1/find-risks',
        node: 'find-risks',
        step: 1,
        agentRunId: 'inner-2',
        agentSessionId: 'inner-session-2',
      },
      { type: 'task-finish', taskId: '1/summarize', node: 'summarize', step: 1, status: 'succeeded' },
    );
    const progress = workflowProgressOf(events, graph);
    expect(statuses(events)).toEqual({
      query: 'succeeded',
      summarize: 'succeeded',
      'find-risks': 'running',
      'write-report': 'pending',
      save: 'pending',
    });
    expect(progress.nodes.get('find-risks')).toMatchObject({ taskId: '1/find-risks', agentRunId: 'inner-2' });
    expect(progress.nodes.get('summarize')).toMatchObject({ taskId: '1/summarize', agentRunId: 'inner-1', runs: 1 });
  });

  it('show a retry with its next attempt and failure, then the failure that ended the run; unreached nodes did not run', () => {
    const failure = { node: 'query', taskId: '0/query', kind: 'tool-failed', message: 'search_documents answered 503' } as const;
    const result: WorkflowResult = {
      runId: 'run-1',
      sessionId: 'session-1',
      status: 'failed',
      reason: 'node-failed',
      steps: 1,
      loops: 0,
      usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 },
    };
    const retrying = stream(start, {
      type: 'task-retry',
      taskId: '0/query',
      node: 'query',
      step: 0,
      attempt: 1,
      failure,
      waitMs: 1000,
    });
    expect(workflowProgressOf(retrying, graph).nodes.get('query')).toMatchObject({
      status: 'retrying',
      attempt: 2,
      failure: 'search_documents answered 503',
    });
    const failed = [
      ...retrying,
      ...stream(
        { type: 'task-finish', taskId: '0/query', node: 'query', step: 0, status: 'failed', failure },
        { type: 'workflow-finish', result },
      ).map((event) => ({ ...event, sequence: event.sequence + retrying.length })),
    ];
    const progress = workflowProgressOf(failed, graph);
    expect(progress.finished).toEqual(result);
    expect(statuses(failed)).toEqual({
      query: 'failed',
      summarize: 'not-run',
      'find-risks': 'not-run',
      'write-report': 'not-run',
      save: 'not-run',
    });
  });

  it('show a node whose input asks a person as waiting, then as it finished; stopped when the run ends first', () => {
    const question: EventInput = {
      type: 'workflow-interrupt',
      interrupts: [{ id: '0/query#input', taskId: '0/query', node: 'query', value: { question: 'Which topic?' } }],
    };
    const waiting = stream(start, question);
    const progress = workflowProgressOf(waiting, graph);
    expect(progress.questions).toBe(1);
    expect(progress.nodes.get('query')).toMatchObject({ status: 'interrupted', taskId: '0/query' });
    const answered = stream(start, question, {
      type: 'task-finish',
      taskId: '0/query',
      node: 'query',
      step: 0,
      status: 'succeeded',
    });
    expect(statuses(answered).query).toBe('succeeded');
    const stopped = {
      runId: 'run-1',
      sessionId: 'session-1',
      status: 'stopped',
      reason: 'user-stop',
      steps: 0,
      loops: 0,
      usage: {},
    };
    const ended = stream(start, question, { type: 'workflow-finish', result: stopped as unknown as WorkflowResult });
    expect(statuses(ended).query).toBe('stopped');
  });

  it('do not depend on the order events arrive in: they are read in sequence order', () => {
    const events = stream(start, { type: 'task-finish', taskId: '0/query', node: 'query', step: 0, status: 'succeeded' });
    expect(statuses([...events].reverse())).toEqual(statuses(events));
  });
});

/** The console's English messages, as the run form words them. */
const englishIntl = createIntl({ locale: 'en', messages: catalogues.en });
const english: Translate = (id, values) =>
  englishIntl.formatMessage({ id }, values as Record<string, string | number | Date | boolean>);

describe("a workflow run's input, checked before it is sent", () => {
  it('is a JSON object of declared state fields, each of its declared type', () => {
    expect(checkRunInput('{"question": "heat pump"}', example.state, english)).toEqual({
      ok: true,
      value: { question: 'heat pump' },
    });
    expect(checkRunInput('   ', example.state, english)).toMatchObject({
      ok: false,
      message: expect.stringMatching(/^Enter the input/),
    });
    expect(checkRunInput('{"question": ', example.state, english)).toMatchObject({
      ok: false,
      message: expect.stringMatching(/^Not valid JSON/),
    });
    expect(checkRunInput('"heat pump"', example.state, english)).toEqual({
      ok: false,
      message: 'The input must be a JSON object of state fields, not string.',
    });
    expect(checkRunInput('{"topic": "x"}', example.state, english)).toEqual({
      ok: false,
      message: '"topic" is not a state field of this workflow; its fields are question, documents, analyses, report, savedTo.',
    });
    expect(checkRunInput('{"question": 3}', example.state, english)).toEqual({
      ok: false,
      message: '"question" must be string, not integer.',
    });
  });

  it('starts the form with the field no node writes (the input), not the first field', () => {
    const written = example.nodes.flatMap((node) =>
      (node as { output?: string }).output ? [String((node as { output?: string }).output)] : [],
    );
    expect(JSON.parse(sampleInput(example.state, written))).toEqual({ question: '' });
    expect(JSON.parse(sampleInput({ count: { schema: { type: 'integer' } } }))).toEqual({ count: 0 });
    expect(sampleInput({})).toBe('{}');
  });
});
