import { describe, expect, it } from 'vitest';
import {
  decodeAnthropicThinking,
  readableAnthropicReasoning,
  redactedThinkingMarker,
  thinkingSignatureMarker,
} from './anthropic-thinking.js';
import { mapAnthropicFinishReason } from './map-anthropic-finish-reason.js';

describe('Anthropic thinking in AssistantMessage.reasoning', () => {
  it('round-trips several blocks byte for byte, whitespace and quotes included', () => {
    const first = '  Step one:\n"quoted"\n\n';
    const second = 'Step two.';
    const reasoning = `${first}${thinkingSignatureMarker('EqQBCkgIARABGAIiQL+/=')}${redactedThinkingMarker('EmwKAhgBEgy3')}${second}${thinkingSignatureMarker('c2ln')}`;
    expect(decodeAnthropicThinking(reasoning)).toEqual([
      { type: 'thinking', thinking: first, signature: 'EqQBCkgIARABGAIiQL+/=' },
      { type: 'redacted_thinking', data: 'EmwKAhgBEgy3' },
      { type: 'thinking', thinking: second, signature: 'c2ln' },
    ]);
  });

  it('drops reasoning that no signature closes, which Anthropic would refuse', () => {
    expect(decodeAnthropicThinking(undefined)).toEqual([]);
    expect(decodeAnthropicThinking('Reasoning from another provider.')).toEqual([]);
    expect(decodeAnthropicThinking(`Signed.${thinkingSignatureMarker('s')}Cut before its signature`)).toEqual([
      { type: 'thinking', thinking: 'Signed.', signature: 's' },
    ]);
  });
  it('gives a readable version without the marker lines, for display', () => {
    const reasoning = `First.${thinkingSignatureMarker('a')}${redactedThinkingMarker('b')}Second.${thinkingSignatureMarker('c')}`;
    expect(readableAnthropicReasoning(reasoning)).toBe('First.\n\nSecond.');
    expect(readableAnthropicReasoning('Plain reasoning.')).toBe('Plain reasoning.');
  });
});

describe('mapAnthropicFinishReason', () => {
  it('maps every stop reason, running out of room to `length`', () => {
    expect(mapAnthropicFinishReason('end_turn')).toBe('stop');
    expect(mapAnthropicFinishReason('stop_sequence')).toBe('stop');
    expect(mapAnthropicFinishReason('tool_use')).toBe('tool-calls');
    expect(mapAnthropicFinishReason('max_tokens')).toBe('length');
    expect(mapAnthropicFinishReason('model_context_window_exceeded')).toBe('length');
    expect(mapAnthropicFinishReason('refusal')).toBe('content-filter');
    expect(mapAnthropicFinishReason('pause_turn')).toBe('other');
    expect(mapAnthropicFinishReason(null)).toBe('other');
  });
});
