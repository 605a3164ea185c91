import type { TokenCounter } from '../context-options.js';

/**
 * The default token estimate: about four characters per token, plus a small overhead per
 * message. Deliberately simple and deterministic; pass `context.countTokens` for a real tokenizer.
 */
export const estimateTokens: TokenCounter = ({ system, messages, tools }) => {
  let characters = system.length + JSON.stringify(tools).length;
  for (const message of messages) {
    characters += message.content.length + 16;
    if (message.role === 'assistant') {
      if (message.toolCalls) characters += JSON.stringify(message.toolCalls).length;
      if (message.reasoning) characters += message.reasoning.length;
    }
  }
  return Math.ceil(characters / 4);
};
