import { abortableSleep } from '../core/abortable-sleep.js';
import { ModelCallError } from '../core/errors/index.js';
import type { Failure } from '../core/failure.js';
import type { Usage } from '../core/messages.js';
import type {
  FinishReason,
  LanguageModelV1,
  ModelCallOptions,
  ModelRequest,
  ModelResponseMetadata,
  ModelStreamPart,
} from '../model/language-model.js';

/** One scripted tool call; `id` defaults to a deterministic value derived from the request. */
export interface ScriptedToolCall {
  name: string;
  arguments?: unknown;
  /**
   * The arguments exactly as streamed, instead of `arguments` as JSON: lets a test send what a
   * real model sometimes does, text that is not JSON (`'{"a": 1,'`), in a complete response.
   */
  argumentsText?: string;
  id?: string;
}

/** What the scripted model answers to one request. */
export interface ScriptedReply {
  /** Answer text (the final answer when there are no tool calls). */
  text?: string;
  toolCalls?: ScriptedToolCall[];
  reasoning?: string;
  /** Defaults to `tool-calls` when there are tool calls, otherwise `stop`. */
  finishReason?: FinishReason;
  usage?: Usage;
  /** Wait before the first part, in milliseconds (exercises the first-output timeout). */
  delayMs?: number;
  /** Send this many parts, then fall silent until aborted (exercises stall detection). */
  stallAfterParts?: number;
  /** Fail the attempt with this failure, after sending `text` as partial output. */
  error?: Failure;
}

/** Computes the reply to a request: a pure function of it gives consistent answers across processes. */
export type ScriptedResponder = (request: ModelRequest, call: { index: number }) => ScriptedReply | Promise<ScriptedReply>;

/** Options of `ScriptedModel`: a responder function or a fixed list of replies. */
export type ScriptedModelOptions = {
  modelId?: string;
  /**
   * How many of the latest requests `requests` keeps (default 1,000; 0 keeps none), so that a
   * long run does not hold every request it ever saw (issue 18: 1 GB over 10,000 loops).
   * `requestCount` counts them all.
   */
  keepRequests?: number;
} & ({ respond: ScriptedResponder; replies?: never } | { replies: readonly ScriptedReply[]; respond?: never });

/**
 * A `LanguageModel` test double that answers from a script, streaming like a real provider
 * (text and tool-call arguments in fragments, a response id `<modelId>-response-<n>` for the
 * n-th request). Prefer it to ad-hoc mocks. With `respond` it can
 * answer as a pure function of the request, so that a run resumed in another process gets the
 * same answers; with `replies` it answers in order.
 *
 * @example
 * const model = new ScriptedModel({
 *   respond: (request) =>
 *     request.messages.some((message) => message.role === 'tool')
 *       ? { text: 'done' }
 *       : { toolCalls: [{ name: 'add', arguments: { a: 1, b: 2 } }] },
 * });
 */
export class ScriptedModel implements LanguageModelV1 {
  readonly specificationVersion = 'v1' as const;
  readonly provider = 'scripted';
  readonly modelId: string;
  /**
   * The latest requests received, oldest first, at most `keepRequests` of them (each with its own
   * copy of the message list).
   */
  readonly requests: ModelRequest[] = [];
  /** How many `requests` keeps at most. */
  readonly keepRequests: number;
  private received = 0;
  private readonly respond: ScriptedResponder;

  constructor(options: ScriptedModelOptions) {
    this.modelId = options.modelId ?? 'scripted';
    const keep = options.keepRequests ?? DEFAULT_KEEP_REQUESTS;
    if (!Number.isInteger(keep) || keep < 0) {
      throw new RangeError(`ScriptedModel keepRequests must be a non-negative integer, got ${String(keep)}.`);
    }
    this.keepRequests = keep;
    if (options.respond) {
      this.respond = options.respond;
    } else {
      const replies = options.replies ?? [];
      this.respond = (_request, call) => {
        const reply = replies[call.index];
        if (!reply) throw new Error(`ScriptedModel has no reply number ${call.index + 1}.`);
        return reply;
      };
    }
  }

  /** How many requests the model received, including those `requests` no longer keeps. */
  get requestCount(): number {
    return this.received;
  }

  async *doStream(request: ModelRequest, options: ModelCallOptions): AsyncIterable<ModelStreamPart> {
    const index = this.received;
    this.received += 1;
    if (this.keepRequests > 0) {
      this.requests.push({ ...request, messages: [...request.messages], tools: [...request.tools] });
      if (this.requests.length > this.keepRequests) this.requests.splice(0, this.requests.length - this.keepRequests);
    }
    const reply = await this.respond(request, { index });
    if (reply.delayMs) await abortableSleep(reply.delayMs, options.signal);
    const parts = partsOf(request, reply, { id: `${this.modelId}-response-${index + 1}`, modelId: this.modelId });
    let sent = 0;
    for (const part of parts) {
      if (reply.stallAfterParts !== undefined && sent >= reply.stallAfterParts) {
        await abortableSleep(2_147_483_647, options.signal);
      }
      yield part;
      sent += 1;
    }
    if (reply.error) throw new ModelCallError(reply.error, { partialText: reply.text ?? '' });
  }
}

/** Requests a `ScriptedModel` keeps unless told otherwise. */
const DEFAULT_KEEP_REQUESTS = 1_000;

function partsOf(request: ModelRequest, reply: ScriptedReply, response: ModelResponseMetadata): ModelStreamPart[] {
  const parts: ModelStreamPart[] = [];
  if (reply.reasoning) parts.push({ type: 'reasoning-delta', text: reply.reasoning });
  const text = reply.text ?? '';
  const middle = Math.ceil(text.length / 2);
  if (text.length > 0) parts.push({ type: 'text-delta', text: text.slice(0, middle) });
  if (text.length > middle) parts.push({ type: 'text-delta', text: text.slice(middle) });
  if (reply.error) return parts;
  const calls = reply.toolCalls ?? [];
  calls.forEach((call, index) => {
    const id = call.id ?? `call_${request.messages.length}_${index}`;
    const json = call.argumentsText ?? JSON.stringify(call.arguments ?? {});
    const cut = Math.floor(json.length / 2);
    parts.push({ type: 'tool-call-start', index, id, name: call.name });
    parts.push({ type: 'tool-call-delta', index, argumentsDelta: json.slice(0, cut) });
    parts.push({ type: 'tool-call-delta', index, argumentsDelta: json.slice(cut) });
  });
  const finishReason = reply.finishReason ?? (calls.length > 0 ? 'tool-calls' : 'stop');
  parts.push({ type: 'finish', finishReason, usage: reply.usage ?? estimateUsage(request, text), response });
  return parts;
}

function estimateUsage(request: ModelRequest, text: string): Usage {
  let characters = request.system.length;
  for (const message of request.messages) characters += message.content.length;
  const inputTokens = Math.ceil(characters / 4);
  const outputTokens = Math.ceil(text.length / 4);
  return { inputTokens, outputTokens, totalTokens: inputTokens + outputTokens };
}
