import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';

/**
 * The OpenTelemetry GenAI semantic conventions v1.41.0 (`docs/gen-ai/gen-ai-spans.md` and
 * `gen-ai-agent-spans.md` of open-telemetry/semantic-conventions at tag v1.41.0), written out by
 * hand from the specification's tables as the oracle of the conformance test: per operation the
 * span kind, the span name and every attribute of the table with its requirement level. The
 * strings are typed here on purpose, independently of the names the tracing uses, so that a wrong
 * name in the tracing is caught rather than repeated.
 */

/** What the application gave, which decides the "when available" conditions. */
export interface ConformanceFacts {
  /** Agent and role descriptions by agent name (`gen_ai.agent.description`, "when available"). */
  agentDescriptions: Readonly<Record<string, string>>;
  /** Tool descriptions by tool name (`gen_ai.tool.description`, "if available"). */
  toolDescriptions: Readonly<Record<string, string>>;
  /** `server.address` of the model, when it is served over the network. */
  serverAddress?: string;
  /** The output limit the requests ask for, when one is configured. */
  maxOutputTokens?: number;
  /** Whether content capture is on; off, no opt-in attribute may appear. */
  recordContent: boolean;
}

type Level = 'required' | 'conditionally-required' | 'recommended' | 'opt-in';

interface AttributeRule {
  key: string;
  level: Level;
  /** For a conditional level: whether the condition holds for this span. Absent: always. */
  when?: (span: ReadableSpan, facts: ConformanceFacts) => boolean;
  /** Why the attribute never applies to AgentLoom's spans (not checked, listed in docs/telemetry.md). */
  notApplicable?: string;
  /** Checks the value; returns a problem, or undefined. */
  value?: (value: unknown, span: ReadableSpan, facts: ConformanceFacts) => string | undefined;
}

interface OperationRule {
  operation: string;
  kind: SpanKind;
  /** The span name the conventions ask for. */
  name: (attributes: ReadableSpan['attributes']) => string;
  attributes: readonly AttributeRule[];
}

const failed = (span: ReadableSpan) => span.status.code === SpanStatusCode.ERROR;
const succeeded = (span: ReadableSpan) => !failed(span);
const isString = (value: unknown) => (typeof value === 'string' && value !== '' ? undefined : 'must be a non-empty string');
const isInteger = (value: unknown) => (Number.isInteger(value) ? undefined : 'must be an int');
const equals = (expected: unknown) => (value: unknown) =>
  value === expected ? undefined : `must be ${JSON.stringify(expected)}, got ${JSON.stringify(value)}`;
/** The values of the `FinishReason` enum of `gen-ai-output-messages.json` v1.41.0. */
export const FINISH_REASONS = ['stop', 'length', 'content_filter', 'tool_call', 'error'] as const;
const finishReasons = (value: unknown) =>
  Array.isArray(value) && value.length > 0 && value.every((reason) => (FINISH_REASONS as readonly unknown[]).includes(reason))
    ? undefined
    : `must be a non-empty array of ${FINISH_REASONS.join(' | ')}, got ${JSON.stringify(value)}`;
const agentName = (span: ReadableSpan) => String(span.attributes['gen_ai.agent.name']);
const toolName = (span: ReadableSpan) => String(span.attributes['gen_ai.tool.name']);

const errorType: AttributeRule = { key: 'error.type', level: 'conditionally-required', when: failed, value: isString };
const notSent = 'AgentLoom never sends this request setting';
/** The request settings and opt-in content every agent and inference span table lists. */
const requestSettings: AttributeRule[] = [
  { key: 'gen_ai.output.type', level: 'conditionally-required', notApplicable: 'requests never ask for an output format' },
  { key: 'gen_ai.request.choice.count', level: 'conditionally-required', notApplicable: 'requests always ask for one choice' },
  { key: 'gen_ai.request.seed', level: 'conditionally-required', notApplicable: notSent },
  {
    key: 'gen_ai.request.max_tokens',
    level: 'recommended',
    when: (_span, facts) => facts.maxOutputTokens !== undefined,
    value: (value, _span, facts) => equals(facts.maxOutputTokens)(value),
  },
  { key: 'gen_ai.request.frequency_penalty', level: 'recommended', notApplicable: notSent },
  { key: 'gen_ai.request.presence_penalty', level: 'recommended', notApplicable: notSent },
  { key: 'gen_ai.request.stop_sequences', level: 'recommended', notApplicable: notSent },
  { key: 'gen_ai.request.temperature', level: 'recommended', notApplicable: notSent },
  { key: 'gen_ai.request.top_p', level: 'recommended', notApplicable: notSent },
  {
    key: 'gen_ai.usage.cache_creation.input_tokens',
    level: 'recommended',
    notApplicable: 'the model port reports input tokens as one count (cached tokens included)',
  },
  {
    key: 'gen_ai.usage.cache_read.input_tokens',
    level: 'recommended',
    notApplicable: 'the model port reports input tokens as one count (cached tokens included)',
  },
  { key: 'gen_ai.input.messages', level: 'opt-in' },
  { key: 'gen_ai.output.messages', level: 'opt-in' },
  { key: 'gen_ai.system_instructions', level: 'opt-in' },
  { key: 'gen_ai.tool.definitions', level: 'opt-in' },
];

/** The conventions' table per operation (v1.41.0). */
export const OPERATIONS: readonly OperationRule[] = [
  {
    // "Invoke agent internal span": AgentLoom's agents run in the caller's process.
    operation: 'invoke_agent',
    kind: SpanKind.INTERNAL,
    name: (attributes) => `invoke_agent ${String(attributes['gen_ai.agent.name'])}`,
    attributes: [
      { key: 'gen_ai.operation.name', level: 'required', value: equals('invoke_agent') },
      { key: 'gen_ai.provider.name', level: 'required', value: isString },
      errorType,
      {
        key: 'gen_ai.agent.description',
        level: 'conditionally-required',
        when: (span, facts) => facts.agentDescriptions[agentName(span)] !== undefined,
        value: (value, span, facts) => equals(facts.agentDescriptions[agentName(span)])(value),
      },
      {
        key: 'gen_ai.agent.id',
        level: 'conditionally-required',
        notApplicable: 'an in-process agent has no identifier apart from its name (no remote agent service)',
      },
      { key: 'gen_ai.agent.name', level: 'conditionally-required', value: isString },
      { key: 'gen_ai.agent.version', level: 'conditionally-required', notApplicable: 'an SDK agent has no version' },
      { key: 'gen_ai.conversation.id', level: 'conditionally-required', value: isString },
      { key: 'gen_ai.data_source.id', level: 'conditionally-required', notApplicable: 'no data source is attached to an agent' },
      { key: 'gen_ai.request.model', level: 'conditionally-required', value: isString },
      ...requestSettings,
      { key: 'gen_ai.response.finish_reasons', level: 'recommended', when: succeeded, value: finishReasons },
      { key: 'gen_ai.usage.input_tokens', level: 'recommended', value: isInteger },
      { key: 'gen_ai.usage.output_tokens', level: 'recommended', value: isInteger },
    ],
  },
  {
    // "Inference": a model call over the network.
    operation: 'chat',
    kind: SpanKind.CLIENT,
    name: (attributes) => `chat ${String(attributes['gen_ai.request.model'])}`,
    attributes: [
      { key: 'gen_ai.operation.name', level: 'required', value: equals('chat') },
      { key: 'gen_ai.provider.name', level: 'required', value: isString },
      errorType,
      { key: 'gen_ai.conversation.id', level: 'conditionally-required', value: isString },
      { key: 'gen_ai.request.model', level: 'conditionally-required', value: isString },
      // Every model call streams ("if and only if the request is streaming").
      { key: 'gen_ai.request.stream', level: 'conditionally-required', value: equals(true) },
      {
        key: 'server.port',
        level: 'conditionally-required',
        when: (span) => span.attributes['server.address'] !== undefined,
        value: isInteger,
      },
      ...requestSettings,
      { key: 'gen_ai.request.top_k', level: 'recommended', notApplicable: notSent },
      { key: 'gen_ai.response.finish_reasons', level: 'recommended', when: succeeded, value: finishReasons },
      { key: 'gen_ai.response.id', level: 'recommended', when: succeeded, value: isString },
      { key: 'gen_ai.response.model', level: 'recommended', when: succeeded, value: isString },
      {
        key: 'gen_ai.response.time_to_first_chunk',
        level: 'recommended',
        notApplicable: 'not recorded: the run events do not carry the moment of the first chunk',
      },
      { key: 'gen_ai.usage.input_tokens', level: 'recommended', when: succeeded, value: isInteger },
      { key: 'gen_ai.usage.output_tokens', level: 'recommended', when: succeeded, value: isInteger },
      {
        key: 'gen_ai.usage.reasoning.output_tokens',
        level: 'recommended',
        notApplicable: 'the model port reports output tokens as one count (reasoning included)',
      },
      {
        key: 'server.address',
        level: 'recommended',
        when: (_span, facts) => facts.serverAddress !== undefined,
        value: (value, _span, facts) => equals(facts.serverAddress)(value),
      },
    ],
  },
  {
    operation: 'execute_tool',
    kind: SpanKind.INTERNAL,
    name: (attributes) => `execute_tool ${String(attributes['gen_ai.tool.name'])}`,
    attributes: [
      { key: 'gen_ai.operation.name', level: 'required', value: equals('execute_tool') },
      { key: 'gen_ai.tool.name', level: 'required', value: isString },
      errorType,
      { key: 'gen_ai.tool.call.id', level: 'recommended', value: isString },
      {
        key: 'gen_ai.tool.description',
        level: 'recommended',
        when: (span, facts) => facts.toolDescriptions[toolName(span)] !== undefined,
        value: (value, span, facts) => equals(facts.toolDescriptions[toolName(span)])(value),
      },
      {
        key: 'gen_ai.tool.type',
        level: 'recommended',
        value: (value) => (['function', 'extension', 'datastore'].includes(String(value)) ? undefined : 'unknown tool type'),
      },
      { key: 'gen_ai.tool.call.arguments', level: 'opt-in' },
      { key: 'gen_ai.tool.call.result', level: 'opt-in' },
    ],
  },
  {
    operation: 'invoke_workflow',
    kind: SpanKind.INTERNAL,
    name: (attributes) => `invoke_workflow ${String(attributes['gen_ai.workflow.name'])}`,
    attributes: [
      { key: 'gen_ai.operation.name', level: 'required', value: equals('invoke_workflow') },
      errorType,
      { key: 'gen_ai.workflow.name', level: 'conditionally-required', value: isString },
      { key: 'gen_ai.input.messages', level: 'opt-in' },
      { key: 'gen_ai.output.messages', level: 'opt-in' },
    ],
  },
];

/** AgentLoom's own content attributes, opt-in like the conventions' content. */
const OWN_CONTENT = ['agentloom.run.output'];

/** What `checkConformance` found: problems break conformance; missing recommended attributes are listed apart. */
export interface ConformanceReport {
  problems: string[];
  recommendedMissing: string[];
}

/**
 * Checks finished spans of one run against the table: for every GenAI span its kind, name,
 * required and conditionally required attributes (when their condition holds), the values, that
 * no opt-in content appears unless captured on purpose, and the structure of the trace — one
 * trace with one root, model and tool spans inside an `invoke_agent`, an agent inside a workflow
 * under its `workflow_task`, and no agent invocation traced twice.
 */
export function checkConformance(spans: readonly ReadableSpan[], facts: ConformanceFacts): ConformanceReport {
  const problems: string[] = [];
  const recommendedMissing: string[] = [];
  const byId = new Map(spans.map((span) => [span.spanContext().spanId, span]));
  const parentOf = (span: ReadableSpan) => {
    const id = span.parentSpanContext?.spanId;
    return id ? byId.get(id) : undefined;
  };
  const operationOf = (span: ReadableSpan | undefined) => span?.attributes['gen_ai.operation.name'];
  for (const span of spans) {
    const label = `${span.name} [${span.spanContext().spanId.slice(0, 6)}]`;
    const operation = operationOf(span);
    const rule = OPERATIONS.find((candidate) => candidate.operation === operation);
    if (!rule) {
      if (!span.name.startsWith('workflow_task ')) problems.push(`${label}: not a GenAI operation nor a workflow task`);
      if (span.kind !== SpanKind.INTERNAL) problems.push(`${label}: kind ${SpanKind[span.kind]}, expected INTERNAL`);
      continue;
    }
    if (span.kind !== rule.kind) problems.push(`${label}: kind ${SpanKind[span.kind]}, expected ${SpanKind[rule.kind]}`);
    // The name is made of an attribute; a missing attribute is reported once, below.
    const expectedName = rule.name(span.attributes);
    if (span.name !== expectedName && !expectedName.endsWith(' undefined')) {
      problems.push(`${label}: name should be "${expectedName}"`);
    }
    for (const attribute of rule.attributes) {
      if (attribute.notApplicable) continue;
      const value = span.attributes[attribute.key];
      if (attribute.level === 'opt-in') {
        if (!facts.recordContent && value !== undefined) problems.push(`${label}: opt-in ${attribute.key} recorded by default`);
        continue;
      }
      if (attribute.when && !attribute.when(span, facts)) continue;
      if (value === undefined) {
        if (attribute.level === 'recommended') recommendedMissing.push(`${rule.operation}: ${attribute.key}`);
        else problems.push(`${label}: ${attribute.level} ${attribute.key} missing`);
        continue;
      }
      const problem = attribute.value?.(value, span, facts);
      if (problem) problems.push(`${label}: ${attribute.key} ${problem}`);
    }
    if (span.attributes['error.type'] !== undefined && !failed(span)) problems.push(`${label}: error.type on a span that did not fail`);
    if (rule.operation === 'chat' || rule.operation === 'execute_tool') {
      if (operationOf(parentOf(span)) !== 'invoke_agent') problems.push(`${label}: not inside an invoke_agent span`);
    }
    if (rule.operation === 'invoke_agent') {
      const parent = parentOf(span);
      const nested =
        parent === undefined ||
        operationOf(parent) === 'invoke_agent' ||
        (parent.name.startsWith('workflow_task ') && operationOf(parentOf(parent)) === 'invoke_workflow');
      if (!nested) problems.push(`${label}: an agent must be a root, a sub-agent or inside a workflow_task`);
    }
  }
  if (!facts.recordContent) {
    for (const span of spans)
      for (const key of OWN_CONTENT) if (span.attributes[key] !== undefined) problems.push(`${span.name}: ${key} recorded by default`);
  }
  const roots = spans.filter((span) => parentOf(span) === undefined);
  if (roots.length !== 1) problems.push(`expected one root span, got ${roots.length}: ${roots.map((span) => span.name).join(', ')}`);
  const traces = new Set(spans.map((span) => span.spanContext().traceId));
  if (traces.size !== 1) problems.push(`expected one trace, got ${traces.size}`);
  const invocations = new Map<string, number>();
  for (const span of spans) {
    if (operationOf(span) !== 'invoke_agent') continue;
    const key = `${String(span.attributes['agentloom.run.id'])}/${String(span.attributes['agentloom.task.id'] ?? 'entry')}`;
    invocations.set(key, (invocations.get(key) ?? 0) + 1);
  }
  for (const [key, count] of invocations) if (count > 1) problems.push(`agent invocation ${key} traced ${count} times`);
  return { problems, recommendedMissing: [...new Set(recommendedMissing)].sort() };
}
