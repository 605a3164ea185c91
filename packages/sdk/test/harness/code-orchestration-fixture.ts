/**
 * The agent of the code-orchestration crash test (N-15), the same in the killed child and in the
 * taker: a model that sends one script calling `step` three times and answers with its result,
 * and a `step` tool that reports each call to `onStep` before it returns.
 */
import { z } from 'zod';
import { type AgentConfig, BubblewrapSandbox, type RunStore, SCRIPT_TOOL_NAME, tool } from '../../src/index.js';
import { ScriptedModel } from '../../src/testing/index.js';

/** The script the model sends: three calls in a loop, then their results. */
export const stepScript = 'const out = [];\nfor (let n = 1; n <= 3; n++) out.push(await tools.step({ n }));\nreturn out;';

/** The agent options; `onStep` is called with `n` on each call of the tool. */
export function scriptAgentOptions(store: RunStore, onStep: (n: number) => void): AgentConfig & { model: ScriptedModel } {
  const step = tool({
    name: 'step',
    description: 'Takes step n.',
    parameters: z.object({ n: z.number() }),
    execute: ({ n }) => {
      onStep(n);
      return `step ${n} done`;
    },
  });
  const model = new ScriptedModel({
    respond: (request) => {
      const result = request.messages.find((message) => message.role === 'tool');
      return result
        ? { text: `script said ${result.content}` }
        : { toolCalls: [{ name: SCRIPT_TOOL_NAME, arguments: { script: stepScript } }] };
    },
  });
  return {
    name: 'stepper',
    mode: 'react',
    model,
    prompt: 'Use a script.',
    tools: [step],
    store,
    leaseMs: 1_000,
    codeOrchestration: { sandbox: new BubblewrapSandbox() },
    execution: { retry: { enabled: true, attempts: 3, waitMs: 10 } },
  };
}
