import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import { describe, expect, it } from 'vitest';
import { ModelCallError } from '../../core/errors/index.js';
import type { ModelStreamPart } from '../../model/language-model.js';
import { OpenAICompatibleStreamMapper } from './openai-compatible-stream-mapper.js';

const chunk = (delta: Record<string, unknown>, finishReason: string | null = null): ChatCompletionChunk =>
  ({
    id: 'chatcmpl-1',
    object: 'chat.completion.chunk',
    created: 0,
    model: 'm',
    choices: [{ index: 0, delta, finish_reason: finishReason, logprobs: null }],
  }) as ChatCompletionChunk;

/** The response id and model every chunk of `chunk` repeats. */
const response = { id: 'chatcmpl-1', modelId: 'm' };

const run = (chunks: ChatCompletionChunk[]): ModelStreamPart[] => {
  const mapper = new OpenAICompatibleStreamMapper();
  return [...chunks.flatMap((item) => mapper.map(item)), mapper.finish()];
};

describe('OpenAICompatibleStreamMapper: what compatible servers do differently', () => {
  it('holds back arguments that arrive before the name, and makes up an id when none is sent', () => {
    const parts = run([
      chunk({ tool_calls: [{ index: 0, function: { arguments: '{"a":' } }] }),
      chunk({ tool_calls: [{ index: 0, function: { name: 'add', arguments: '1}' } }] }),
      chunk({}, 'tool_calls'),
    ]);
    expect(parts[0]).toMatchObject({ type: 'tool-call-start', index: 0, name: 'add' });
    expect((parts[0] as { id: string }).id).toMatch(/^call_/);
    expect(parts.slice(1)).toEqual([
      { type: 'tool-call-delta', index: 0, argumentsDelta: '{"a":' },
      { type: 'tool-call-delta', index: 0, argumentsDelta: '1}' },
      { type: 'finish', finishReason: 'tool-calls', response },
    ]);
  });

  it('reads a whole tool call sent in one chunk without an index, and a `stop` finish beside it', () => {
    const parts = run([
      chunk({ tool_calls: [{ id: 'call_9', type: 'function', function: { name: 'add', arguments: '{"a":1}' } }] }),
      chunk({}, 'stop'),
    ]);
    expect(parts).toEqual([
      { type: 'tool-call-start', index: 0, id: 'call_9', name: 'add' },
      { type: 'tool-call-delta', index: 0, argumentsDelta: '{"a":1}' },
      { type: 'finish', finishReason: 'tool-calls', response },
    ]);
  });

  it('reads reasoning from `reasoning` as well as `reasoning_content`', () => {
    const parts = run([chunk({ reasoning: 'think' }), chunk({ content: 'answer' }, 'stop')]);
    expect(parts).toEqual([
      { type: 'reasoning-delta', text: 'think' },
      { type: 'text-delta', text: 'answer' },
      { type: 'finish', finishReason: 'stop', response },
    ]);
  });

  it('gives the finish the response id and model of the stream, the first non-empty ones, or none', () => {
    const named = [chunk({ content: 'a' }), { ...chunk({}, 'stop'), id: 'chatcmpl-2', model: 'm-2' }];
    expect(run(named).at(-1)).toEqual({ type: 'finish', finishReason: 'stop', response });
    // Some compatible servers send empty ids and models: the finish then says nothing about them.
    const anonymous = [
      { ...chunk({ content: 'a' }), id: '', model: '' },
      { ...chunk({}, 'stop'), id: '', model: '' },
    ];
    expect(run(anonymous).at(-1)).toEqual({ type: 'finish', finishReason: 'stop' });
  });

  it('fails as incomplete output when the stream ends without a finish reason or a call never got a name', () => {
    const noFinish = new OpenAICompatibleStreamMapper();
    noFinish.map(chunk({ content: 'Hel' }));
    expect(() => noFinish.finish()).toThrow(ModelCallError);
    const unnamed = new OpenAICompatibleStreamMapper();
    unnamed.map(chunk({ tool_calls: [{ index: 0, function: { arguments: '{}' } }] }, 'tool_calls'));
    try {
      unnamed.finish();
      expect.unreachable();
    } catch (error) {
      expect((error as ModelCallError).failure).toMatchObject({ kind: 'incomplete-output', code: 'unnamed-tool-call' });
    }
  });
});
