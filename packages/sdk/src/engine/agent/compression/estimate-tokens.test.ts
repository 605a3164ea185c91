import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Message } from '../../../core/messages.js';
import { estimateTokens } from './estimate-tokens.js';

/** A history of `loops` tool-calling turns, as a ReAct run builds it. */
function history(loops: number): Message[] {
  const messages: Message[] = [{ role: 'user', content: 'Look the order up.' }];
  for (let loop = 0; loop < loops; loop += 1) {
    messages.push({
      role: 'assistant',
      content: '',
      toolCalls: [{ id: `call-${loop}`, name: 'lookup', arguments: { order: loop, fields: ['status', 'total'] } }],
    } as Message);
    messages.push({ role: 'tool', toolCallId: `call-${loop}`, content: `order ${loop}: shipped` } as Message);
  }
  return messages;
}

describe('estimateTokens', () => {
  afterEach(() => vi.restoreAllMocks());

  it('gives the same estimate for the same history, whether its messages were counted before or are fresh copies', () => {
    const messages = history(20);
    const first = estimateTokens({ system: 'You look orders up.', messages, tools: [] });
    const again = estimateTokens({ system: 'You look orders up.', messages, tools: [] });
    const copies = estimateTokens({ system: 'You look orders up.', messages: structuredClone(messages), tools: [] });
    expect(again).toBe(first);
    expect(copies).toBe(first);
    // Four characters a token, 16 per message, the tool calls as JSON.
    const characters =
      'You look orders up.'.length +
      2 +
      messages.reduce(
        (sum, message) =>
          sum +
          message.content.length +
          16 +
          (message.role === 'assistant' && message.toolCalls ? JSON.stringify(message.toolCalls).length : 0),
        0,
      );
    expect(first).toBe(Math.ceil(characters / 4));
  });

  it('counts each message once while the history grows: a run of n loops stringifies n tool calls, not n²', () => {
    const messages = history(50);
    const stringify = vi.spyOn(JSON, 'stringify');
    // The run's requests: before each loop the history so far (and the tool list, here empty).
    for (let length = 1; length <= messages.length; length += 2) {
      estimateTokens({ system: '', messages: messages.slice(0, length), tools: [] });
    }
    const ofToolCalls = stringify.mock.calls.filter(([value]) => Array.isArray(value) && value.length > 0);
    expect(ofToolCalls).toHaveLength(50);
  });
});
