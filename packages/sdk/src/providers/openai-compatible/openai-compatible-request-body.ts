import type { ChatCompletionCreateParamsStreaming } from 'openai/resources/chat/completions';
import type { ModelRequest, ModelSettings } from '../../model/language-model.js';
import { toProviderInputSchema } from '../shared/model-settings.js';
import { convertToOpenAICompatibleMessages } from './convert-to-openai-compatible-messages.js';

/** The body field that carries the output token limit: OpenAI's current one or the older one most compatible servers know. */
export type MaxTokensField = 'max_completion_tokens' | 'max_tokens';

/** What shapes a request body besides the request itself. */
export interface OpenAICompatibleBodyOptions {
  modelId: string;
  settings: ModelSettings;
  maxTokensField: MaxTokensField;
  includeUsage: boolean;
  sendReasoning: boolean;
  extraBody: Readonly<Record<string, unknown>> | undefined;
}

/**
 * Builds the streaming chat-completions body of one request. Tools keep the order they were
 * given (N-4). Thinking maps to `reasoning_effort`, which reasoning models read and others are
 * not sent: it is only added when thinking is switched on (effort `medium` unless stated).
 * `extraBody` comes last so that an endpoint-specific switch can override anything.
 */
export function buildOpenAICompatibleRequestBody(
  request: ModelRequest,
  options: OpenAICompatibleBodyOptions,
): ChatCompletionCreateParamsStreaming {
  const body: ChatCompletionCreateParamsStreaming = {
    model: options.modelId,
    messages: convertToOpenAICompatibleMessages(request.system, request.messages, { sendReasoning: options.sendReasoning }),
    stream: true,
  };
  if (request.tools.length > 0) {
    body.tools = request.tools.map((definition) => ({
      type: 'function' as const,
      function: { name: definition.name, description: definition.description, parameters: toProviderInputSchema(definition) },
    }));
  }
  if (options.includeUsage) body.stream_options = { include_usage: true };
  const thinking = options.settings.thinking;
  if (thinking?.enabled) body.reasoning_effort = thinking.effort ?? 'medium';
  if (options.settings.maxOutputTokens !== undefined) body[options.maxTokensField] = options.settings.maxOutputTokens;
  return { ...body, ...options.extraBody } as ChatCompletionCreateParamsStreaming;
}
