import type { CommandGenerator, CommandGeneratorRequest } from '@agentloom/intent';
import type { RetryPolicy } from '../core/retry-policy.js';
import { callModel } from '../model/call-model.js';
import type { LanguageModel, ModelSettings } from '../model/language-model.js';

/** Options of `languageModelCommandGenerator`. */
export interface LanguageModelCommandGeneratorOptions {
  /** Longest time for the whole call, retries included, in milliseconds (default 30,000). */
  timeoutMs?: number;
  /** Longest wait for the first part of the answer (default 20,000). */
  firstOutputTimeoutMs?: number;
  /** Longest silence once the answer streams (default 20,000). */
  stallTimeoutMs?: number;
  /** Retries of failed calls (default off: a turn should answer fast or fail). */
  retry?: RetryPolicy;
  /** Model-side settings (thinking, output token limit). */
  settings?: ModelSettings;
}

const noRetry: RetryPolicy = { enabled: false, attempts: 1, waitMs: 0 };

/**
 * Adapts an SDK `LanguageModel` to the `CommandGenerator` port of `@agentloom/intent` (N-14): the
 * model layer's prompt goes out as one system and one user message, with no tools, through
 * `callModel` (timeouts, stall detection, complete responses only, optional retries); the
 * answer's text comes back as it is. The intent layer parses and validates it against the
 * catalog — this adapter neither trusts nor executes anything — and a failed call surfaces as
 * the intent layer's `CommandGeneratorError`, with the SDK's `ModelCallError` as its cause.
 *
 * @example
 * import { understand } from '@agentloom/intent';
 * import { languageModelCommandGenerator } from '@agentloom/sdk/intent';
 * const generator = languageModelCommandGenerator(model);
 * const { commands } = await understand({ utterance, state, catalog, ports: { generator } });
 */
export function languageModelCommandGenerator(
  model: LanguageModel,
  options: LanguageModelCommandGeneratorOptions = {},
): CommandGenerator {
  const timeoutMs = options.timeoutMs ?? 30_000;
  return {
    name: `${model.provider}:${model.modelId}`,
    async generate(request: CommandGeneratorRequest, callOptions: { signal?: AbortSignal }): Promise<unknown> {
      const response = await callModel(
        model,
        {
          system: request.prompt.system,
          messages: [{ role: 'user', content: request.prompt.user }],
          tools: [],
          ...(options.settings ? { settings: options.settings } : {}),
        },
        {
          signal: callOptions.signal ?? new AbortController().signal,
          deadlineAt: Date.now() + timeoutMs,
          firstOutputTimeoutMs: options.firstOutputTimeoutMs ?? 20_000,
          stallTimeoutMs: options.stallTimeoutMs ?? 20_000,
          retry: options.retry ?? noRetry,
        },
      );
      return response.message.content;
    },
  };
}
