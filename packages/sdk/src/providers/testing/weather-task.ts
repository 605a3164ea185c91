import { z } from 'zod';
import { tool } from '../../capabilities/tools/tool.js';
import { Agent } from '../../engine/agent/agent.js';
import type { LanguageModel } from '../../model/language-model.js';
import { MemoryRunStore } from '../../store/memory/memory-run-store.js';
import type { RunStore } from '../../store/run-store.js';
import type { TracingOptions } from '../../telemetry/agent-tracing.js';

/** The temperatures the `get_weather` tool knows; the recorded answers quote them. */
const temperatures: Readonly<Record<string, number>> = { Paris: 18, Tokyo: 22 };

/**
 * A ReAct agent with one `get_weather` tool, the task the recorded tool-call streams belong to.
 * `calls` lists the arguments of every execution, so that a test can tell whether a tool call was
 * really executed (S-8) and how often. The store defaults to memory; crash tests pass a durable one,
 * telemetry tests a tracer.
 */
export function weatherAgent(
  model: LanguageModel,
  options: { store?: RunStore; leaseMs?: number; telemetry?: TracingOptions } = {},
): { agent: Agent; calls: unknown[] } {
  const calls: unknown[] = [];
  const getWeather = tool({
    name: 'get_weather',
    description: 'Current temperature of a city.',
    parameters: z.object({ city: z.string(), unit: z.enum(['celsius', 'fahrenheit']).default('celsius') }),
    execute: (args) => {
      calls.push(args);
      return `${temperatures[args.city] ?? 'unknown'} °C`;
    },
  });
  const writeNote = tool({
    name: 'write_note',
    description: 'Saves a note.',
    parameters: z.object({ title: z.string(), body: z.string(), tags: z.array(z.string()) }),
    execute: (args) => {
      calls.push(args);
      return 'saved';
    },
  });
  const agent = new Agent({
    name: 'weather-agent',
    mode: 'react',
    model,
    prompt: 'You answer weather questions with the get_weather tool.',
    tools: [getWeather, writeNote],
    store: options.store ?? new MemoryRunStore(),
    ...(options.leaseMs !== undefined ? { leaseMs: options.leaseMs } : {}),
    ...(options.telemetry ? { telemetry: options.telemetry } : {}),
  });
  return { agent, calls };
}
