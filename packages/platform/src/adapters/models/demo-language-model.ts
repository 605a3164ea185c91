import type { LanguageModelV1, ModelCallOptions, ModelRequest, ModelStreamPart } from '@agentloom/sdk/ports';
import { type DemoScript, type DemoStep, scriptedAnswerLabel } from '../../domain/demo-script.js';

/** One scripted answer of the offline demo model. */
export interface DemoReply {
  /** Answers when the latest user message contains this text (case-insensitive). */
  whenInputContains: string;
  reply: string;
}

/** The rules of an offline demo connection, as its settings hold them. */
export interface DemoRules {
  scripts: readonly DemoScript[];
  replies: readonly DemoReply[];
  fallback: string;
}

type RequestMessage = ModelRequest['messages'][number];

/** Fills `{{input}}`, `{{results}}` and `{{resultN}}` from the task's own messages. */
function fill(text: string, input: string, results: readonly string[]): string {
  return text
    .replaceAll('{{input}}', input)
    .replaceAll('{{results}}', results.join('\n'))
    .replace(/\{\{result(\d+)\}\}/g, (_, index: string) => results[Number(index) - 1] ?? '');
}

/** Waits `ms`, ending early (with the abort) when the call is aborted. */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });
}

/**
 * The offline demo model behind the seeded demo connection: it follows rules written as data in
 * the connection's settings, streaming like a real provider, with no network. A script plays an
 * agent's steps — tool calls (a parallel batch when there are several, a delegation when the
 * name is an executor role) and answers built from the tool results — chosen by the number of
 * model calls the task has made since its latest user message, so it is a pure function of the
 * conversation and a run taken over by another worker replays to the same step. Every scripted
 * answer starts with `[Scripted demo]`. It lets `npm start` show tools, executors and workflows
 * without a vendor key; it is a model connection like any other, not a test double in the engine.
 */
export class DemoLanguageModel implements LanguageModelV1 {
  readonly specificationVersion = 'v1' as const;
  readonly provider = 'offline-demo';

  constructor(
    readonly modelId: string,
    private readonly rules: DemoRules,
  ) {}

  async *doStream(request: ModelRequest, options: ModelCallOptions): AsyncIterable<ModelStreamPart> {
    options.signal.throwIfAborted();
    const messages = request.messages;
    let lastUserIndex = -1;
    for (let index = messages.length - 1; index >= 0; index -= 1)
      if (messages[index]?.role === 'user') {
        lastUserIndex = index;
        break;
      }
    const input = messages[lastUserIndex]?.content ?? '';
    const since: RequestMessage[] = messages.slice(lastUserIndex + 1);
    const turn = since.filter((message) => message.role === 'assistant').length;
    const results = since.flatMap((message) => (message.role === 'tool' ? [message.content] : []));
    const step = this.stepFor(request.system, input, turn);
    if (step?.delayMs) await pause(step.delayMs, options.signal);
    const text =
      step?.text !== undefined ? scriptedAnswerLabel + fill(step.text, input, results) : step ? '' : this.replyTo(input);
    if (text.length > 0) {
      const middle = Math.ceil(text.length / 2);
      yield { type: 'text-delta', text: text.slice(0, middle) };
      if (text.length > middle) yield { type: 'text-delta', text: text.slice(middle) };
    }
    const calls = step?.toolCalls ?? [];
    for (const [index, call] of calls.entries()) {
      yield { type: 'tool-call-start', index, id: `demo_${turn}_${index}`, name: call.name };
      yield { type: 'tool-call-delta', index, argumentsDelta: JSON.stringify(fillArguments(call.arguments, input, results)) };
    }
    const inputTokens = Math.ceil((request.system.length + input.length) / 4);
    const outputTokens = Math.ceil((text.length + JSON.stringify(calls).length) / 4);
    yield {
      type: 'finish',
      finishReason: calls.length > 0 ? 'tool-calls' : 'stop',
      usage: { inputTokens, outputTokens, totalTokens: inputTokens + outputTokens },
    };
  }

  /** The step of the first matching script for this turn (its last step once the script ran out). */
  private stepFor(system: string, input: string, turn: number): DemoStep | undefined {
    const lowerSystem = system.toLowerCase();
    const lowerInput = input.toLowerCase();
    const script = this.rules.scripts.find(
      (candidate) =>
        (!candidate.whenSystemContains || lowerSystem.includes(candidate.whenSystemContains.toLowerCase())) &&
        (!candidate.whenInputContains || lowerInput.includes(candidate.whenInputContains.toLowerCase())),
    );
    if (!script) return undefined;
    const step = script.steps[Math.min(turn, script.steps.length - 1)];
    // A script that ran out of steps while still calling tools answers with what it has, never loops.
    if (turn >= script.steps.length && step?.toolCalls) return { text: '{{results}}' };
    return step;
  }

  /** The plain rule-by-reply answer (connections made before scripts existed). */
  private replyTo(input: string): string {
    const lower = input.toLowerCase();
    return this.rules.replies.find((rule) => lower.includes(rule.whenInputContains.toLowerCase()))?.reply ?? this.rules.fallback;
  }
}

/** String argument values may use the same placeholders as answers. */
function fillArguments(args: Record<string, unknown>, input: string, results: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(args).map(([key, value]) => [key, typeof value === 'string' ? fill(value, input, results) : value]),
  );
}
