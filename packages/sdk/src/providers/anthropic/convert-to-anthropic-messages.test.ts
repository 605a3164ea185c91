import { describe, expect, it } from 'vitest';
import type { Message } from '../../core/messages.js';
import { redactedThinkingMarker, thinkingSignatureMarker } from './anthropic-thinking.js';
import { convertToAnthropicMessages } from './convert-to-anthropic-messages.js';

const reasoning = `Check both.${thinkingSignatureMarker('sig-1')}${redactedThinkingMarker('opaque')}`;
const conversation: Message[] = [
  { role: 'user', content: 'Weather in Paris and Tokyo?' },
  {
    role: 'assistant',
    content: '',
    reasoning,
    toolCalls: [
      { id: 'toolu_1', name: 'get_weather', arguments: { city: 'Paris' } },
      { id: 'toolu_2', name: 'get_weather', arguments: { city: 'Tokyo' } },
    ],
  },
  { role: 'tool', toolCallId: 'toolu_1', toolName: 'get_weather', content: '18 °C' },
  { role: 'user', content: 'Only Celsius, please.' },
  { role: 'tool', toolCallId: 'toolu_2', toolName: 'get_weather', content: 'timeout', isError: true },
];

describe('convertToAnthropicMessages', () => {
  it('merges tool results and a supplement into one user turn, tool results first', () => {
    expect(convertToAnthropicMessages(conversation, { includeThinking: false })).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Weather in Paris and Tokyo?' }] },
      {
        role: 'assistant',
        content: [
          { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris' } },
          { type: 'tool_use', id: 'toolu_2', name: 'get_weather', input: { city: 'Tokyo' } },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_1', content: '18 °C' },
          { type: 'tool_result', tool_use_id: 'toolu_2', content: 'timeout', is_error: true },
          { type: 'text', text: 'Only Celsius, please.' },
        ],
      },
    ]);
  });

  it('puts signed thinking blocks first in the assistant turn while thinking is on', () => {
    const [, assistant] = convertToAnthropicMessages(conversation, { includeThinking: true });
    expect(assistant?.content.slice(0, 2)).toEqual([
      { type: 'thinking', thinking: 'Check both.', signature: 'sig-1' },
      { type: 'redacted_thinking', data: 'opaque' },
    ]);
  });

  it('never sends an empty text block, nor an input that is not an object', () => {
    const converted = convertToAnthropicMessages(
      [
        { role: 'user', content: 'Go.' },
        { role: 'assistant', content: '', toolCalls: [{ id: 'toolu_3', name: 'ping', arguments: undefined }] },
        { role: 'tool', toolCallId: 'toolu_3', toolName: 'ping', content: '' },
      ],
      { includeThinking: true },
    );
    expect(converted.slice(1)).toEqual([
      { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_3', name: 'ping', input: {} }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_3' }] },
    ]);
  });
});
