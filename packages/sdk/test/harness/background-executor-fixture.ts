/**
 * The agent of the background-executor crash test (N-7), the same in the killed child and in the
 * taker: the planner delegates one background task, answers early, and once the result arrived
 * answers with it; the researcher's model is given by the caller (it freezes in the child).
 */
import { Agent, type RunStore } from '../../src/index.js';
import { type ModelRequest, ScriptedModel, type ScriptedReply } from '../../src/testing/index.js';

const PLANNER = 'You plan and delegate.';

/** The agent; `researcher` answers the executor's model calls. */
export function backgroundCrashAgent(store: RunStore, researcher: (request: ModelRequest) => ScriptedReply): Agent {
  const model = new ScriptedModel({
    respond: (request) => {
      if (!request.system.startsWith(PLANNER)) return researcher(request);
      const result = request.messages.find(
        (message) => message.role === 'user' && String(message.content).startsWith('Background task entry/1/0 '),
      );
      if (result) return { text: `final: ${String(result.content).split('\n').at(-1)}` };
      if (request.messages.some((message) => message.role === 'tool')) return { text: 'early answer' };
      return { toolCalls: [{ name: 'researcher', arguments: { task: 'find the capital of France' } }] };
    },
  });
  return new Agent({
    name: 'lead',
    mode: 'plan-executor',
    model,
    store,
    leaseMs: 1_000,
    planner: { prompt: PLANNER },
    executors: [{ name: 'researcher', description: 'Researches.', prompt: 'You research.', background: true }],
  });
}
