import { afterEach, describe, expect, it } from 'vitest';
import { ModelCallError } from '../../core/errors/index.js';
import { callModel } from '../../model/call-model.js';
import type { ModelRequest } from '../../model/language-model.js';
import { readEventData, readHttpFixture } from '../testing/http-fixture.js';
import { describeProviderFailures } from '../testing/provider-failure-suite.js';
import { caught, replayCallOptions, sentBody } from '../testing/replay-harness.js';
import { type ReplayScript, type ReplayServer, startReplayServer } from '../testing/replay-server.js';
import { weatherAgent } from '../testing/weather-task.js';
import { createOpenAICompatible, type OpenAICompatibleModelOptions } from './openai-compatible-provider.js';

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

/** The tool-call ids a recorded stream carries, in order. */
const toolCallIds = (name: string) =>
  readEventData(fixture(name)).flatMap((chunk) =>
    ((chunk.choices as { delta?: { tool_calls?: { id?: string }[] } }[] | undefined) ?? []).flatMap((choice) =>
      (choice.delta?.tool_calls ?? []).flatMap((call) => (call.id ? [call.id] : [])),
    ),
  );

describe('OpenAICompatibleLanguageModel against recorded streams', () => {
  let server: ReplayServer | undefined;
  const start = async (script: ReplayScript, options: OpenAICompatibleModelOptions = {}) => {
    server = await startReplayServer(script);
    const provider = createOpenAICompatible({ apiKey: 'test-key', baseURL: `${server.baseURL}/v1`, name: 'replay' });
    return { server, model: provider('gpt-5.4-mini', options) };
  };
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('streams a plain text answer with its usage, from one well-formed request', async () => {
    const { server, model } = await start([{ fixture: fixture('plain-text') }]);
    const result = await callModel(model, { ...request, tools: [] }, replayCallOptions());
    const [first] = readEventData(fixture('plain-text'));
    expect(result).toEqual({
      message: { role: 'assistant', content: 'Hello! The capital of France is Paris, on the Seine.' },
      finishReason: 'stop',
      usage: { inputTokens: 31, outputTokens: 14, totalTokens: 45 },
      // The completion's id and the dated model that answered, as every chunk repeats them.
      response: { id: first?.id, modelId: first?.model },
      attempt: 1,
    });
    expect(result.response).toEqual({ id: expect.stringMatching(/^chatcmpl-/), modelId: 'gpt-5.4-mini-2026-03-17' });
    expect(model.provider).toBe('replay');
    expect(model.server).toEqual({ address: '127.0.0.1', port: Number(new URL(server.baseURL).port) });
    const [sent] = server.requests;
    expect(sent).toMatchObject({ method: 'POST', path: '/v1/chat/completions' });
    expect(sent?.headers).toMatchObject({ authorization: 'Bearer test-key', 'x-stainless-retry-count': '0' });
    expect(sent?.body).toEqual({
      model: 'gpt-5.4-mini',
      messages: [
        { role: 'system', content: 'You are tested.' },
        { role: 'user', content: 'Weather in Paris and Tokyo?' },
      ],
      stream: true,
      stream_options: { include_usage: true },
    });
  });

  it('assembles parallel tool calls in order, with the ids the provider gave them', async () => {
    const { server, model } = await start([{ fixture: fixture('parallel-tool-calls') }]);
    const result = await callModel(model, request, replayCallOptions());
    const [first, second] = toolCallIds('parallel-tool-calls');
    expect(result.finishReason).toBe('tool-calls');
    expect(result.message).toEqual({
      role: 'assistant',
      content: '',
      toolCalls: [
        { id: first, name: 'get_weather', arguments: { city: 'Paris', unit: 'celsius' } },
        { id: second, name: 'get_weather', arguments: { city: 'Tokyo', unit: 'celsius' } },
      ],
    });
    // Tools go out in the order given, as functions, without zod's `$schema` marker (N-4).
    expect(sentBody(server.requests, 0).tools).toEqual([
      {
        type: 'function',
        function: {
          name: 'get_weather',
          description: weatherTool.description,
          parameters: { type: 'object', properties: { city: { type: 'string' } } },
        },
      },
      { type: 'function', function: { name: 'write_note', description: noteTool.description, parameters: { type: 'object' } } },
    ]);
  });

  it('reassembles tool-call arguments split over many chunks, escapes and non-ASCII text included', async () => {
    const fragments = readEventData(fixture('split-tool-arguments')).length;
    expect(fragments).toBeGreaterThan(30);
    const { model } = await start([{ fixture: fixture('split-tool-arguments') }]);
    const result = await callModel(model, request, replayCallOptions());
    expect(result.message.toolCalls).toEqual([
      {
        id: toolCallIds('split-tool-arguments')[0],
        name: 'write_note',
        arguments: {
          title: 'Café notes',
          body: 'Line one said "hi".\nLine two: 50% off — naïve ☕ tests \\ done.',
          tags: ['a', 'b', 'c'],
        },
      },
    ]);
  });

  it('streams reasoning apart from the answer, and asks for reasoning effort when thinking is on', async () => {
    const { server, model } = await start([{ fixture: fixture('reasoning') }, { fixture: fixture('reasoning') }], {
      settings: { thinking: { enabled: true, effort: 'low' } },
    });
    const result = await callModel(model, request, replayCallOptions());
    expect(result.message).toEqual({
      role: 'assistant',
      content: '17 × 3 = 51.',
      reasoning: 'The user asks for 17 times 3. 17 times 3 is 51.',
    });
    expect(result.usage).toEqual({ inputTokens: 18, outputTokens: 40, totalTokens: 58 });
    await callModel(
      model,
      { ...request, settings: { thinking: { enabled: true, effort: 'high' }, maxOutputTokens: 900 } },
      replayCallOptions(),
    );
    expect(server.requests.map((sent) => (sent.body as { reasoning_effort?: string }).reasoning_effort)).toEqual(['low', 'high']);
    // A compatible endpoint gets the limit in the field it knows.
    expect(server.requests[1]?.body).toMatchObject({ max_tokens: 900 });
  });

  it('fails a `length` finish as incomplete output: its cut tool call is never returned (S-8)', async () => {
    const { server, model } = await start([{ fixture: fixture('length') }]);
    const error = await caught(() => callModel(model, request, replayCallOptions()));
    expect(ModelCallError.isInstance(error)).toBe(true);
    expect((error as ModelCallError).failure.kind).toBe('incomplete-output');
    expect(server.requests).toHaveLength(1);
  });

  it('never executes the tool call of a `length` finish in a ReAct run', async () => {
    const { model } = await start([{ fixture: fixture('length') }]);
    const { agent, calls } = weatherAgent(model);
    const result = await agent.run({ sessionId: 'session', input: 'Save a note.' }).result();
    expect(result).toMatchObject({ status: 'failed', reason: 'model-failed', failure: { kind: 'incomplete-output' } });
    expect(calls).toEqual([]);
  });

  it('completes a tool-using ReAct run end to end, sending the tool results back correlated', async () => {
    const { server, model } = await start([{ fixture: fixture('parallel-tool-calls') }, { fixture: fixture('weather-answer') }]);
    const { agent, calls } = weatherAgent(model);
    const result = await agent.run({ sessionId: 'session', input: 'Weather in Paris and Tokyo?' }).result();
    expect(result).toMatchObject({ status: 'succeeded', output: 'It is 18 °C in Paris and 22 °C in Tokyo.', loops: 2 });
    // Usage per request is summed over the run: 112 + 46 and 187 + 17.
    expect(result.usage).toEqual({ inputTokens: 299, outputTokens: 63, totalTokens: 362 });
    expect(calls).toEqual([
      { city: 'Paris', unit: 'celsius' },
      { city: 'Tokyo', unit: 'celsius' },
    ]);
    const [first, second] = toolCallIds('parallel-tool-calls');
    const messages = sentBody(server.requests, 1).messages as unknown[];
    expect(messages.slice(2)).toEqual([
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: first, type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris","unit":"celsius"}' } },
          { id: second, type: 'function', function: { name: 'get_weather', arguments: '{"city":"Tokyo","unit":"celsius"}' } },
        ],
      },
      { role: 'tool', tool_call_id: first, content: '18 °C' },
      { role: 'tool', tool_call_id: second, content: '22 °C' },
    ]);
  });
});

describeProviderFailures({
  name: 'OpenAI-compatible',
  createModel: (serverURL) => createOpenAICompatible({ apiKey: 'test-key', baseURL: `${serverURL}/v1` })('gpt-5.4-mini'),
  fixtures: {
    plainText: fixture('plain-text'),
    rateLimited: fixture('rate-limited'),
    serverError: fixture('server-error'),
    authentication: fixture('invalid-api-key'),
    midStreamError: fixture('mid-stream-error'),
  },
  text: 'Hello! The capital of France is Paris, on the Seine.',
  // The fixture sends both `retry-after: 1` and `retry-after-ms: 80`; the more precise one wins.
  retryAfterMs: 80,
  // The role chunk, then "Hello", "!", " The".
  eventsBeforePartialText: 4,
  partialText: 'Hello! The',
  midStreamErrorCode: 'server_error',
});
