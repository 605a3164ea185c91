import type { Hook, HookContext, HookTrigger } from './hook-types.js';

/** A guardrail's verdict: passed, or tripped with a reason. */
export interface GuardrailVerdict {
  passed: boolean;
  reason?: string;
}

/** A check on text: the run's input and supplements (input), or the final answer (output) (N-2). */
export interface Guardrail {
  name: string;
  check(text: string, context: HookContext): GuardrailVerdict | Promise<GuardrailVerdict>;
}

/** A check on every tool call, on its effective arguments (N-2). */
export interface ToolGuardrail {
  name: string;
  check(call: { toolName: string; arguments: unknown }, context: HookContext): GuardrailVerdict | Promise<GuardrailVerdict>;
}

/** The guardrails of an agent (N-2): input on the entry role only, output on the final answer, tools on every call. */
export interface Guardrails {
  input?: readonly Guardrail[];
  output?: readonly Guardrail[];
  tool?: readonly ToolGuardrail[];
}

/**
 * A guardrail as a hook of `trigger`: it denies when tripped, and fails closed (a guardrail that
 * throws or times out denies), because a safety check that cannot run must not wave things through.
 */
export function guardrailHook<Trigger extends HookTrigger>(
  name: string,
  check: (subject: never, context: HookContext) => GuardrailVerdict | Promise<GuardrailVerdict>,
): Hook<Trigger> {
  return {
    name: `guardrail:${name}`,
    failClosed: true,
    async handle(subject, context) {
      const verdict = await check(subject as never, context);
      if (typeof verdict?.passed !== 'boolean') throw new Error('a guardrail must answer { passed }');
      return verdict.passed ? undefined : { decision: 'deny', reason: verdict.reason ?? `guardrail ${name} tripped` };
    },
  };
}
