import { describe, expect, it } from 'vitest';
import type { Message } from '../../core/messages.js';
import { convertToOpenAICompatibleMessages } from './convert-to-openai-compatible-messages.js';

const conversation: Message[] = [
  { role: 'user', content: 'Weather in Paris?' },
  {
    role: 'assistant',
    content: '',
    reasoning: 'Call the tool.',
    toolCalls: [{ id: 'call_1', name: 'get_weather', arguments: { city: 'Paris' } }],
  },
  { role: 'tool', toolCallId: 'call_1', toolName: 'get_weather', content: 'tool failed: timeout', isError: true },
  { role: 'user', content: 'Hurry up.' },
  { role: 'assistant', content: 'It is 18 °C.' },
];

describe('convertToOpenAICompatibleMessages', () => {
  it('keeps order and correlation, with null content beside tool calls and no reasoning by default', () => {
    expect(convertToOpenAICompatibleMessages('Be brief.', conversation)).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Weather in Paris?' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }],
      },
      { role: 'tool', tool_call_id: 'call_1', content: 'tool failed: timeout' },
      { role: 'user', content: 'Hurry up.' },
      { role: 'assistant', content: 'It is 18 °C.' },
    ]);
  });

  it('leaves out an empty system part, and sends reasoning back when asked (DeepSeek thinking with tools)', () => {
    const converted = convertToOpenAICompatibleMessages('', conversation.slice(0, 2), { sendReasoning: true });
    expect(converted[0]).toEqual({ role: 'user', content: 'Weather in Paris?' });
    expect(converted[1]).toMatchObject({ role: 'assistant', reasoning_content: 'Call the tool.' });
  });
});
