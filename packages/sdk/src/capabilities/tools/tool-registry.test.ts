import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { InvalidConfigurationError } from '../../core/errors/index.js';
import { Agent } from '../../engine/agent/agent.js';
import { MemoryRunStore } from '../../store/memory/memory-run-store.js';
import { ScriptedModel } from '../../testing/scripted-model.js';
import { type Tool, tool } from './tool.js';
import { createToolRegistry } from './tool-registry.js';
import { DeferredToolNotFoundError, InvalidToolArgumentsError } from './tool-registry-errors.js';

const weather = tool({
  name: 'weather_forecast',
  description: 'Gives the weather forecast for a city.',
  parameters: z.object({ city: z.string() }),
  execute: ({ city }, context) => `sunny in ${city} (operation ${context.operationId}, attempt ${context.attempt})`,
});
const exchange = tool({
  name: 'currency_exchange',
  description: 'Converts an amount between currencies.',
  parameters: z.object({ amount: z.number(), from: z.string(), to: z.string() }),
  execute: ({ amount }) => amount * 2,
});
const clock = tool({ name: 'clock', description: 'Tells the time.', parameters: z.object({}), execute: () => 'noon' });

const context = { runId: 'r', sessionId: 's', taskId: 't', operationId: 'o', attempt: 1, signal: new AbortController().signal };
const run = (found: Tool | undefined, args: unknown) => Promise.resolve(found?.execute(found.parameters.parse(args), context));

describe('tool registry with deferred loading (N-5)', () => {
  const registry = createToolRegistry({ tools: [clock], deferred: [weather, exchange] });
  const [, toolSearch, callTool] = registry.tools;

  it('exposes the direct tools plus tool_search and call_tool, and names the deferred ones', () => {
    expect(registry.tools.map((item) => item.name)).toEqual(['clock', 'tool_search', 'call_tool']);
    expect(registry.promptSection).toContain('currency_exchange, weather_forecast');
    expect(createToolRegistry({ tools: [clock] }).tools.map((item) => item.name)).toEqual(['clock']);
  });

  it('ranks deferred tools deterministically and selects by exact name', async () => {
    expect(registry.search('weather city').map((hit) => hit.tool.name)).toEqual(['weather_forecast']);
    expect(registry.search('select:currency_exchange,weather_forecast').map((hit) => hit.tool.name)).toEqual([
      'currency_exchange',
      'weather_forecast',
    ]);
    const found = JSON.parse((await run(toolSearch, { query: 'convert currencies' })) as string);
    expect(found[0]).toMatchObject({ name: 'currency_exchange', inputSchema: { required: ['amount', 'from', 'to'] } });
    expect(await run(toolSearch, { query: 'spaceship' })).toContain('No tool matches');
  });

  it('calls a deferred tool with validated arguments and the same context', async () => {
    expect(await run(callTool, { name: 'weather_forecast', arguments: { city: 'Oslo' } })).toBe(
      'sunny in Oslo (operation o, attempt 1)',
    );
    await expect(run(callTool, { name: 'missing', arguments: {} })).rejects.toSatisfy(DeferredToolNotFoundError.isInstance);
    await expect(run(callTool, { name: 'currency_exchange', arguments: { amount: 'x' } })).rejects.toSatisfy(
      InvalidToolArgumentsError.isInstance,
    );
  });

  it('refuses duplicate or reserved names at construction', () => {
    expect(() => createToolRegistry({ tools: [clock], deferred: [clock] })).toThrow(InvalidConfigurationError);
  });

  it('lets a ReAct run find a deferred tool and call it', async () => {
    const model = new ScriptedModel({
      respond: (request) => {
        const results = request.messages.filter((message) => message.role === 'tool');
        if (results.length === 0) return { toolCalls: [{ name: 'tool_search', arguments: { query: 'weather' } }] };
        if (results.length === 1) {
          const [definition] = JSON.parse(results[0]?.content ?? '[]') as { name: string }[];
          return { toolCalls: [{ name: 'call_tool', arguments: { name: definition?.name, arguments: { city: 'Lima' } } }] };
        }
        return { text: results[1]?.content ?? '' };
      },
    });
    const agent = new Agent({
      name: 'deferred',
      mode: 'react',
      model,
      prompt: `You help.\n\n${registry.promptSection}`,
      tools: registry.tools,
      store: new MemoryRunStore(),
    });
    const result = await agent.run({ sessionId: 'session', input: 'Weather in Lima?' }).result();
    expect(result.status).toBe('succeeded');
    expect(result.output).toMatch(/^sunny in Lima \(operation .+, attempt 1\)$/);
    expect(
      model.requests.every((request) => request.tools.map((item) => item.name).join() === 'clock,tool_search,call_tool'),
    ).toBe(true);
  });
});
