import type { MessageCreateParamsStreaming, Tool } from '@anthropic-ai/sdk/resources/messages';
import type { ModelRequest, ModelSettings } from '../../model/language-model.js';
import { type ThinkingEffort, toProviderInputSchema } from '../shared/model-settings.js';
import { convertToAnthropicMessages } from './convert-to-anthropic-messages.js';

/**
 * How thinking is switched on: `budget` sends `thinking: { type: 'enabled', budget_tokens }` with
 * a budget chosen by effort (every thinking model accepts it); `adaptive` sends
 * `thinking: { type: 'adaptive' }` with `output_config.effort`, which newer models prefer.
 */
export type AnthropicThinkingMode = 'budget' | 'adaptive';

/** What shapes a request body besides the request itself. */
export interface AnthropicBodyOptions {
  modelId: string;
  settings: ModelSettings;
  /** `max_tokens` when the settings name no limit; the API requires one. */
  defaultMaxOutputTokens: number;
  thinkingMode: AnthropicThinkingMode;
  thinkingBudgets: Readonly<Record<ThinkingEffort, number>>;
}

/**
 * Builds the streaming messages body of one request. Tools keep their order (N-4). With thinking
 * on in `budget` mode the thinking budget is added on top of the output limit, because Anthropic
 * counts thinking inside `max_tokens` and requires the budget to be below it: the answer keeps
 * the room it was given. Thinking switched off explicitly is sent as `disabled`, for models that
 * would otherwise think by default; unset, nothing is sent and the model's default applies.
 */
export function buildAnthropicRequestBody(request: ModelRequest, options: AnthropicBodyOptions): MessageCreateParamsStreaming {
  const thinking = options.settings.thinking;
  const thinkingOn = thinking?.enabled === true;
  const outputTokens = options.settings.maxOutputTokens ?? options.defaultMaxOutputTokens;
  const body: MessageCreateParamsStreaming = {
    model: options.modelId,
    max_tokens: outputTokens,
    messages: convertToAnthropicMessages(request.messages, { includeThinking: thinkingOn }),
    stream: true,
  };
  if (request.system !== '') body.system = request.system;
  if (request.tools.length > 0) {
    body.tools = request.tools.map((definition) => ({
      name: definition.name,
      description: definition.description,
      input_schema: toProviderInputSchema(definition) as Tool.InputSchema,
    }));
  }
  if (thinkingOn) {
    const effort = thinking.effort ?? 'medium';
    if (options.thinkingMode === 'adaptive') {
      body.thinking = { type: 'adaptive' };
      body.output_config = { effort };
    } else {
      const budget = options.thinkingBudgets[effort];
      body.thinking = { type: 'enabled', budget_tokens: budget };
      body.max_tokens = outputTokens + budget;
    }
  } else if (thinking?.enabled === false) {
    body.thinking = { type: 'disabled' };
  }
  return body;
}
