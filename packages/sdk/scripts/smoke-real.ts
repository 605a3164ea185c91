/**
 * `npm run smoke:real`: runs one ReAct task with a tool against a real model, when the
 * environment names one (`AGENTLOOM_OPENAI_API_KEY` or `AGENTLOOM_ANTHROPIC_API_KEY`, see
 * docs/providers.md). Without a key it prints "skipped: no key" and exits 0, so that it can sit
 * in any pipeline. Its outcome is reported as a real-model result, apart from the scripted tests
 * one human line and one `REAL-MODEL-RESULT <json>` line for tools to collect.
 */
import { z } from 'zod';
import { Agent, type AgentRunEvent, tool } from '../src/index.js';
import { createLanguageModelFromEnvironment, readProviderEnvironment } from '../src/providers/index.js';

const label = 'real-model smoke';
const connection = readProviderEnvironment();
if (!connection) {
  console.log(`${label}: skipped: no key (set AGENTLOOM_OPENAI_API_KEY or AGENTLOOM_ANTHROPIC_API_KEY to run it)`);
  process.exit(0);
}

const model = await createLanguageModelFromEnvironment();
if (!model) throw new Error('the environment names a provider but no model could be created');

const expected = 1234 * 5678;
const toolCalls: { a: number; b: number }[] = [];
const multiply = tool({
  name: 'multiply',
  description: 'Multiplies two integers exactly. Use it for every multiplication.',
  parameters: z.object({ a: z.number().int(), b: z.number().int() }),
  execute: ({ a, b }) => {
    toolCalls.push({ a, b });
    return String(a * b);
  },
});

const agent = new Agent({
  name: 'smoke-real',
  mode: 'react',
  model,
  prompt: 'You are a careful assistant. Always use the multiply tool for arithmetic, then answer with the number only.',
  tools: [multiply],
  // Real networks fail now and then: this is where the connection layer's retry earns its keep.
  execution: {
    maxLoops: 6,
    timeoutMs: 180_000,
    retry: { enabled: true, attempts: 3, waitMs: 2_000 },
    modelFirstOutputTimeoutMs: 60_000,
    modelStallTimeoutMs: 60_000,
  },
});

const startedAt = Date.now();
const run = agent.run({ sessionId: 'smoke-real', input: 'What is 1234 multiplied by 5678?' });
const failures: AgentRunEvent[] = [];
for await (const event of run.events()) {
  if (event.type === 'model-call-fail' || event.type === 'tool-call-fail') failures.push(event);
}
const result = await run.result();
const digits = (result.output ?? '').replace(/[^\d]/g, '');
const checks = {
  succeeded: result.status === 'succeeded',
  toolUsed: toolCalls.some((call) => call.a * call.b === expected),
  answerCorrect: digits.includes(String(expected)),
};
const passed = Object.values(checks).every(Boolean);
const report = {
  kind: 'real-model',
  passed,
  provider: model.provider,
  modelId: model.modelId,
  endpoint: connection.baseURL ?? 'default',
  checks,
  status: result.status,
  reason: result.reason,
  failure: result.failure,
  loops: result.loops,
  usage: result.usage,
  toolCalls: toolCalls.length,
  retriedAttempts: failures.length,
  durationMs: Date.now() - startedAt,
  output: result.output,
};
console.log(
  `${label}: ${passed ? 'PASS' : 'FAIL'} (${model.provider} ${model.modelId}, ${result.loops} loops, ` +
    `${result.usage.totalTokens} tokens, ${report.durationMs} ms)`,
);
console.log(`REAL-MODEL-RESULT ${JSON.stringify(report)}`);
process.exitCode = passed ? 0 : 1;
