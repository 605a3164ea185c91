import type { AssistantMessage, Message, Usage } from '../core/messages.js';

/** A tool as the model sees it: name, description and a JSON Schema (2020-12) of its input. */
export interface ToolDefinition {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
  /** `delegation` marks an executor role offered to a planner (L-3); plain tools omit it. */
  kind?: 'function' | 'delegation';
}

/** Model-side settings a role may ask for; adapters ignore what their provider cannot do. */
export interface ModelSettings {
  thinking?: { enabled: boolean; effort?: 'low' | 'medium' | 'high' };
  maxOutputTokens?: number;
}

/** One request to a language model: system part, conversation and the tools in a fixed order. */
export interface ModelRequest {
  system: string;
  messages: readonly Message[];
  tools: readonly ToolDefinition[];
  settings?: ModelSettings;
}

/** Why a provider says its response ended. Only `stop` and `tool-calls` can be complete. */
export type FinishReason = 'stop' | 'tool-calls' | 'length' | 'content-filter' | 'other';

/**
 * What the provider says about the response it sent, when it says it: its id (OpenAI's
 * `chatcmpl-…`, Anthropic's `msg_…`) and the model that actually answered (a dated version of the
 * requested one). For telemetry and for matching a response with the provider's own records.
 */
export interface ModelResponseMetadata {
  id?: string;
  modelId?: string;
}

/** The network endpoint a model is served from, as telemetry names it (`server.address`, `server.port`). */
export interface ModelServer {
  /** Host name or IP address, without brackets for IPv6. */
  address: string;
  port: number;
}

/**
 * The parts an adapter yields while streaming one attempt. Tool-call arguments arrive as JSON
 * text fragments keyed by `index`; the connection layer assembles and validates them (S-8).
 */
export type ModelStreamPart =
  | { type: 'text-delta'; text: string }
  | { type: 'reasoning-delta'; text: string }
  | { type: 'tool-call-start'; index: number; id: string; name: string }
  | { type: 'tool-call-delta'; index: number; argumentsDelta: string }
  | { type: 'finish'; finishReason: FinishReason; usage?: Usage; response?: ModelResponseMetadata };

/** Per-attempt options the connection layer passes to an adapter. */
export interface ModelCallOptions {
  /** Aborted on stop, deadline, first-output timeout or stall; the adapter must end its request. */
  signal: AbortSignal;
}

/**
 * The language model port, version 1. An adapter performs exactly one attempt per `doStream`
 * call and never retries by itself: retries, first-output timeouts and stall detection belong to
 * the connection layer above it, so there is never a second retry layer. Failures are
 * thrown as `ModelCallError` with a typed `failure`.
 *
 * The `do` prefix marks the method as the adapter side of the port: engines call it through
 * `callModel`, never directly.
 */
export interface LanguageModelV1 {
  readonly specificationVersion: 'v1';
  /** Provider name, for diagnostics and telemetry (`openai`, `anthropic`, `scripted` …). */
  readonly provider: string;
  readonly modelId: string;
  /** Where the model is served, for telemetry; absent for a model that runs in the process (`ScriptedModel`). */
  readonly server?: ModelServer;
  doStream(request: ModelRequest, options: ModelCallOptions): AsyncIterable<ModelStreamPart>;
}

/** The current language model port. */
export type LanguageModel = LanguageModelV1;

/** A complete, validated model response: the only kind the engines ever act on (S-7, S-8). */
export interface ModelResponse {
  message: AssistantMessage;
  finishReason: FinishReason;
  usage: Usage;
  /** Present when the provider identified its response. */
  response?: ModelResponseMetadata;
}
