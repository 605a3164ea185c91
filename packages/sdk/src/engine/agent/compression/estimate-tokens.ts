import type { Message } from '../../../core/messages.js';
import type { TokenCounter } from '../context-options.js';

/**
 * Characters counted per message object. A run's history is counted before every model request
 * (the request's report, the compression check) and only grows: without the memo a run of n
 * loops stringified its tool calls about n² times. A message is never changed once made (the
 * run's state is replaced, not edited), so its count stays true.
 */
const counted = new WeakMap<Message, number>();

function messageCharacters(message: Message): number {
  let characters = counted.get(message);
  if (characters === undefined) {
    characters = message.content.length + 16;
    if (message.role === 'assistant') {
      if (message.toolCalls) characters += JSON.stringify(message.toolCalls).length;
      if (message.reasoning) characters += message.reasoning.length;
    }
    counted.set(message, characters);
  }
  return characters;
}

/**
 * The default token estimate: about four characters per token, plus a small overhead per
 * message. Deliberately simple and deterministic; pass `context.countTokens` for a real tokenizer.
 */
export const estimateTokens: TokenCounter = ({ system, messages, tools }) => {
  let characters = system.length + JSON.stringify(tools).length;
  for (const message of messages) characters += messageCharacters(message);
  return Math.ceil(characters / 4);
};
