import { afterEach, describe, expect, it } from 'vitest';
import { ModelCallError } from '../../core/errors/index.js';
import { callModel } from '../../model/call-model.js';
import type { ModelRequest } from '../../model/language-model.js';
import { readEventData, readHttpFixture } from '../testing/http-fixture.js';
import { describeProviderFailures } from '../testing/provider-failure-suite.js';
import { caught, recordAttemptFailures, replayCallOptions, sentBody } from '../testing/replay-harness.js';
import { type ReplayScript, type ReplayServer, startReplayServer } from '../testing/replay-server.js';
import { weatherAgent } from '../testing/weather-task.js';
import { type AnthropicModelOptions, createAnthropic } from './anthropic-provider.js';
import { decodeAnthropicThinking } from './anthropic-thinking.js';

const fixture = (name: string) => readHttpFixture(new URL(`./__fixtures__/${name}.http`, import.meta.url));
const weatherTool = {
  name: 'get_weather',
  description: 'Current temperature of a city.',
  inputSchema: {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    type: 'object',
    properties: { city: { type: 'string' } },
  },
};
const noteTool = { name: 'write_note', description: 'Saves a note.', inputSchema: { type: 'object' } };
const request: ModelRequest = {
  system: 'You are tested.',
  messages: [{ role: 'user', content: 'Weather in Paris and Tokyo?' }],
  tools: [weatherTool, noteTool],
};

interface BlockStart {
  type?: string;
  content_block?: { type: string; id?: string; data?: string };
  delta?: { type: string; signature?: string };
}
/** Values a recorded stream carries (tool ids, signatures, redacted data), in order. */
const recorded = (name: string) => {
  const events = readEventData(fixture(name)) as BlockStart[];
  return {
    toolIds: events.flatMap((event) => (event.content_block?.type === 'tool_use' ? [event.content_block.id] : [])),
    signatures: events.flatMap((event) => (event.delta?.type === 'signature_delta' ? [event.delta.signature] : [])),
    redacted: events.flatMap((event) => (event.content_block?.type === 'redacted_thinking' ? [event.content_block.data] : [])),
  };
};

describe('AnthropicLanguageModel against recorded streams', () => {
  let server: ReplayServer | undefined;
  const start = async (script: ReplayScript, options: AnthropicModelOptions = {}) => {
    server = await startReplayServer(script);
    return { server, model: createAnthropic({ apiKey: 'test-key', baseURL: server.baseURL })('claude-sonnet-4-6', options) };
  };
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('streams a plain text answer with its usage, from one well-formed request', async () => {
    const { server, model } = await start([{ fixture: fixture('plain-text') }]);
    const result = await callModel(model, { ...request, tools: [] }, replayCallOptions());
    const [messageStart] = readEventData(fixture('plain-text')) as { message?: { id: string; model: string } }[];
    expect(result).toEqual({
      message: { role: 'assistant', content: 'Hello! The capital of France is Paris, on the Seine.' },
      finishReason: 'stop',
      usage: { inputTokens: 24, outputTokens: 16, totalTokens: 40 },
      // The message's id and model, as `message_start` announced them.
      response: { id: messageStart?.message?.id, modelId: messageStart?.message?.model },
      attempt: 1,
    });
    expect(result.response?.id).toMatch(/^msg_/);
    expect(model.provider).toBe('anthropic');
    expect(model.server).toEqual({ address: '127.0.0.1', port: Number(new URL(server.baseURL).port) });
    const [sent] = server.requests;
    expect(sent).toMatchObject({ method: 'POST', path: '/v1/messages' });
    expect(sent?.headers['x-stainless-retry-count']).toBe('0');
    expect(sent?.body).toEqual({
      model: 'claude-sonnet-4-6',
      max_tokens: 8192,
      system: 'You are tested.',
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Weather in Paris and Tokyo?' }] }],
      stream: true,
    });
  });

  it('assembles parallel tool calls in order after the text, with the ids the provider gave them', async () => {
    const { server, model } = await start([{ fixture: fixture('parallel-tool-calls') }]);
    const result = await callModel(model, request, replayCallOptions());
    const [first, second] = recorded('parallel-tool-calls').toolIds;
    expect(result.finishReason).toBe('tool-calls');
    expect(result.message).toEqual({
      role: 'assistant',
      content: "I'll check the weather in both cities.",
      toolCalls: [
        { id: first, name: 'get_weather', arguments: { city: 'Paris', unit: 'celsius' } },
        { id: second, name: 'get_weather', arguments: { city: 'Tokyo', unit: 'celsius' } },
      ],
    });
    expect(sentBody(server.requests, 0).tools).toEqual([
      {
        name: 'get_weather',
        description: weatherTool.description,
        input_schema: { type: 'object', properties: { city: { type: 'string' } } },
      },
      { name: 'write_note', description: noteTool.description, input_schema: { type: 'object' } },
    ]);
  });

  it('reassembles tool input split over many input_json_delta events', async () => {
    expect(readEventData(fixture('split-tool-arguments')).length).toBeGreaterThan(30);
    const { model } = await start([{ fixture: fixture('split-tool-arguments') }]);
    const result = await callModel(model, request, replayCallOptions());
    expect(result.message.toolCalls).toEqual([
      {
        id: recorded('split-tool-arguments').toolIds[0],
        name: 'write_note',
        arguments: {
          title: 'Café notes',
          body: 'Line one said "hi".\nLine two: 50% off — naïve ☕ tests \\ done.',
          tags: ['a', 'b', 'c'],
        },
      },
    ]);
  });

  it('keeps signed and redacted thinking blocks in the reasoning, decodable byte for byte', async () => {
    const { server, model } = await start([{ fixture: fixture('thinking-tool-call') }], {
      settings: { thinking: { enabled: true, effort: 'low' } },
    });
    const result = await callModel(model, request, replayCallOptions());
    const { signatures, redacted } = recorded('thinking-tool-call');
    const thinking = 'The user wants the weather in Paris. I should call get_weather with city "Paris" and metric units.';
    expect(result.message.reasoning?.startsWith(thinking)).toBe(true);
    expect(decodeAnthropicThinking(result.message.reasoning)).toEqual([
      { type: 'thinking', thinking, signature: signatures[0] },
      { type: 'redacted_thinking', data: redacted[0] },
    ]);
    expect(result.message.toolCalls).toHaveLength(1);
    // Thinking on in budget mode: the budget comes on top of the answer's room.
    expect(server.requests[0]?.body).toMatchObject({
      thinking: { type: 'enabled', budget_tokens: 2048 },
      max_tokens: 8192 + 2048,
    });
  });

  it('asks adaptive thinking with an effort, or switches thinking off, as configured', async () => {
    const { server, model } = await start([{ fixture: fixture('plain-text') }, { fixture: fixture('plain-text') }], {
      thinkingMode: 'adaptive',
    });
    await callModel(model, { ...request, settings: { thinking: { enabled: true, effort: 'high' } } }, replayCallOptions());
    await callModel(model, { ...request, settings: { thinking: { enabled: false } } }, replayCallOptions());
    expect(server.requests[0]?.body).toMatchObject({
      thinking: { type: 'adaptive' },
      output_config: { effort: 'high' },
      max_tokens: 8192,
    });
    expect(server.requests[1]?.body).toMatchObject({ thinking: { type: 'disabled' } });
  });

  it('fails a max_tokens stop as incomplete output: its cut tool call is never returned (S-8)', async () => {
    const { server, model } = await start([{ fixture: fixture('length') }]);
    const error = await caught(() => callModel(model, request, replayCallOptions()));
    expect(ModelCallError.isInstance(error)).toBe(true);
    expect((error as ModelCallError).failure.kind).toBe('incomplete-output');
    expect((error as ModelCallError).partialText).toBe('Writing the note now.');
    expect(server.requests).toHaveLength(1);
  });

  it('never executes the tool call of a max_tokens stop in a ReAct run', async () => {
    const { model } = await start([{ fixture: fixture('length') }]);
    const { agent, calls } = weatherAgent(model);
    const result = await agent.run({ sessionId: 'session', input: 'Save a note.' }).result();
    expect(result).toMatchObject({ status: 'failed', reason: 'model-failed', failure: { kind: 'incomplete-output' } });
    expect(calls).toEqual([]);
  });

  it('retries a 529 "overloaded" as a server failure, and never retries a 400', async () => {
    const retry = { enabled: true, attempts: 2, waitMs: 10 };
    const overloaded = await start([{ fixture: fixture('overloaded') }, { fixture: fixture('plain-text') }]);
    const recorder = recordAttemptFailures();
    const result = await callModel(overloaded.model, request, replayCallOptions({ retry, ...recorder }));
    expect(result.attempt).toBe(2);
    expect(recorder.failures[0]?.failure).toMatchObject({ kind: 'server', status: 529, code: 'overloaded_error' });
    expect(overloaded.server.requests).toHaveLength(2);
    await overloaded.server.close();

    const refused = await start([{ fixture: fixture('invalid-request') }, { fixture: fixture('plain-text') }]);
    const error = await caught(() => callModel(refused.model, request, replayCallOptions({ retry })));
    expect((error as ModelCallError).failure).toMatchObject({
      kind: 'invalid-request',
      status: 400,
      code: 'invalid_request_error',
    });
    expect(refused.server.requests).toHaveLength(1);
  });

  it('completes a thinking, tool-using ReAct run, sending thinking and tool results back unchanged', async () => {
    const { server, model } = await start([{ fixture: fixture('thinking-tool-call') }, { fixture: fixture('weather-answer') }], {
      settings: { thinking: { enabled: true, effort: 'low' } },
    });
    const { agent, calls } = weatherAgent(model);
    const result = await agent.run({ sessionId: 'session', input: 'Weather in Paris?' }).result();
    expect(result).toMatchObject({ status: 'succeeded', output: 'It is 18 °C in Paris and 22 °C in Tokyo.', loops: 2 });
    // Usage per request is summed over the run: 431 + 172 and 596 + 21.
    expect(result.usage).toEqual({ inputTokens: 1027, outputTokens: 193, totalTokens: 1220 });
    expect(calls).toEqual([{ city: 'Paris', unit: 'celsius' }]);
    const { toolIds, signatures, redacted } = recorded('thinking-tool-call');
    const messages = sentBody(server.requests, 1).messages as unknown[];
    expect(messages.slice(1)).toEqual([
      {
        role: 'assistant',
        content: [
          {
            type: 'thinking',
            thinking: 'The user wants the weather in Paris. I should call get_weather with city "Paris" and metric units.',
            signature: signatures[0],
          },
          { type: 'redacted_thinking', data: redacted[0] },
          { type: 'tool_use', id: toolIds[0], name: 'get_weather', input: { city: 'Paris', unit: 'celsius' } },
        ],
      },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: toolIds[0], content: '18 °C' }] },
    ]);
  });
});

describeProviderFailures({
  name: 'Anthropic',
  createModel: (serverURL) => createAnthropic({ apiKey: 'test-key', baseURL: serverURL })('claude-sonnet-4-6'),
  fixtures: {
    plainText: fixture('plain-text'),
    rateLimited: fixture('rate-limited'),
    serverError: fixture('server-error'),
    authentication: fixture('authentication-error'),
    midStreamError: fixture('mid-stream-error'),
  },
  text: 'Hello! The capital of France is Paris, on the Seine.',
  // Anthropic sends whole seconds.
  retryAfterMs: 1000,
  // message_start, content_block_start, ping, then "Hello", "!", " The".
  eventsBeforePartialText: 6,
  partialText: 'Hello! The',
  midStreamErrorCode: 'overloaded_error',
});
