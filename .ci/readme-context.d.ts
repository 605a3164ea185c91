/**
 * What the README's snippets take as given: the application's own tools, store, model and
 * helpers, declared with the SDK's types so that every snippet is type-checked against the
 * packed SDK (`.ci/check-packed-readme.mjs`). Anything a snippet uses from a package it imports.
 */
import type {
  Agent,
  ApprovalDecision,
  ApprovalRequest,
  EventBus,
  Guardrail,
  LanguageModel,
  AgentRunEvent as RunEvent,
  RunStore,
  Tool,
  ToolGuardrail,
} from '@agentloom/sdk';
import type { Tracer } from '@opentelemetry/api';

declare global {
  const model: LanguageModel;
  const store: RunStore;
  const agent: Agent;
  const runId: string;
  const sessionId: string;
  const tools: Tool[];
  /** An earlier run of the session (the SDK guide's regenerate example). */
  const previous: { runId: string };
  const key: string;
  const lookup: Tool;
  /** A definition file's text (the definitions section). */
  const text: string;
  const readFile: Tool;
  const countWords: Tool;
  const writeReport: Tool;
  const search: Tool;
  const runSql: Tool;
  const searchDocuments: Tool;
  const summarizer: Agent;
  const riskAnalyst: Agent;
  const planExecutorWriter: Agent;
  const noSecrets: Guardrail;
  const noPii: Guardrail;
  const noProductionHosts: ToolGuardrail;
  const tracer: Tracer;
  const eventBus: EventBus<RunEvent>;
  function redact(result: unknown): unknown;
  function askAHuman(approval: ApprovalRequest): Promise<ApprovalDecision>;
}
