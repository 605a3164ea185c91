import { z } from 'zod';
import type { Sandbox } from '../../sandbox/sandbox.js';
import { type Tool, type ToolExecutionContext, tool } from '../tools/tool.js';
import { runScriptProcess, type ScriptOutcome, type ScriptToolCaller } from './script-process.js';

/** The name of the script tool the model sees when code orchestration is on. */
export const SCRIPT_TOOL_NAME = 'run_script';

/** Code-orchestrated tool calls of an agent (N-15); off unless given. */
export interface CodeOrchestrationOptions {
  /**
   * Where scripts run. Default: the agent workspace's sandbox. It must isolate (bubblewrap)
   * unless `allowUnisolated` is set.
   */
  sandbox?: Sandbox;
  /** Accept a sandbox that does not isolate (`ProcessSandbox`): only for trusted models and tests. */
  allowUnisolated?: boolean;
  /** Most tool calls one script may make; later calls fail inside the script. Default 50. */
  maxToolCalls?: number;
  /** Limit on what one script sends back (arguments, console output, result), in bytes. Default 1 MiB. */
  maxOutputBytes?: number;
  /** Heap limit of the script's JavaScript engine, in MiB. Default 64. */
  maxMemoryMegabytes?: number;
}

/** Options with defaults applied and the sandbox chosen. */
export interface ResolvedCodeOrchestration {
  sandbox: Sandbox;
  maxToolCalls: number;
  maxOutputBytes: number;
  maxMemoryMegabytes: number;
}

/** Applies the defaults; `undefined` sandbox means none was given and the workspace has none. */
export function resolveCodeOrchestration(
  options: CodeOrchestrationOptions | true,
  workspaceSandbox: Sandbox | undefined,
): ResolvedCodeOrchestration | { problem: string } {
  const given = options === true ? {} : options;
  const sandbox = given.sandbox ?? workspaceSandbox;
  if (!sandbox) {
    return { problem: 'code orchestration needs a sandbox: give codeOrchestration.sandbox, or a workspace with a sandbox' };
  }
  if (!sandbox.isolating && !given.allowUnisolated) {
    return {
      problem: `the "${sandbox.kind}" sandbox does not isolate scripts; use bubblewrap, or set allowUnisolated for trusted models only`,
    };
  }
  return {
    sandbox,
    maxToolCalls: given.maxToolCalls ?? 50,
    maxOutputBytes: given.maxOutputBytes ?? 1_048_576,
    maxMemoryMegabytes: given.maxMemoryMegabytes ?? 64,
  };
}

const scriptRunner = Symbol('agentloom.scriptRunner');

/** The script tool: a `Tool` the engine runs with a caller of the role's other tools. */
export interface ScriptTool extends Tool {
  readonly [scriptRunner]: (
    args: { script: string },
    context: ToolExecutionContext,
    callTool: ScriptToolCaller,
  ) => Promise<string>;
}

/** Whether `value` is a script tool (the engine gives it the role's tools instead of calling `execute`). */
export function isScriptTool(value: Tool): value is ScriptTool {
  return scriptRunner in value;
}

/** Runs a script tool's script with `callTool` serving its tool calls; the content the model reads. */
export function runScriptTool(
  scriptTool: ScriptTool,
  args: unknown,
  context: ToolExecutionContext,
  callTool: ScriptToolCaller,
): Promise<string> {
  return scriptTool[scriptRunner](args as { script: string }, context, callTool);
}

/** Raised when a script fails (it threw, did not compile, broke a limit): the model reads why. */
export class ScriptFailedError extends Error {
  override readonly name = 'ScriptFailedError';
  readonly code = 'script-failed';
  readonly retryable = false;
}

/**
 * The `run_script` tool of one role (N-15): the model writes the body of an async JavaScript
 * function that calls the role's tools as `await tools.<name>(args)` (or `callTool(name, args)`)
 * and returns a value. The script runs in the sandbox; every call it makes is run by the engine
 * exactly like a direct call (hooks, permissions, journal, retries), and only the returned value
 * and the console output enter the model's context. Resumable: after a crash the script runs
 * again and its saved calls are replayed from the journal, never made again.
 */
export function createScriptTool(options: ResolvedCodeOrchestration, toolNames: readonly string[]): ScriptTool {
  const names = toolNames.filter((name) => name !== SCRIPT_TOOL_NAME);
  const base = tool({
    name: SCRIPT_TOOL_NAME,
    description:
      'Runs a short JavaScript script that calls your tools in a loop, so that their intermediate results stay out of ' +
      'the conversation. Write the BODY of an async function: call a tool with `await tools.<name>({ ...arguments })` ' +
      '(it resolves to the tool result text, and throws an error with `kind` when the call fails), and `return` what ' +
      `you need (JSON). Only the returned value and console.log output come back to you. Tools: ${names.join(', ') || '(none)'}. ` +
      `At most ${options.maxToolCalls} tool calls; no files, network or modules; the script must behave the same when run again ` +
      '(no randomness or clock in decisions).',
    parameters: z.object({
      script: z
        .string()
        .min(1)
        .describe('The body of an async JavaScript function; use await tools.<name>(args) and return a value.'),
    }),
    resumable: true,
    execute: () => {
      throw new ScriptFailedError('run_script runs only inside an agent run');
    },
  });
  const run = async (args: { script: string }, context: ToolExecutionContext, callTool: ScriptToolCaller) => {
    const outcome = await runScriptProcess({
      sandbox: options.sandbox,
      source: args.script,
      scope: { sessionId: context.sessionId, runId: context.runId },
      toolNames: names,
      callTool,
      signal: context.signal,
      maxToolCalls: options.maxToolCalls,
      maxOutputBytes: options.maxOutputBytes,
      maxMemoryMegabytes: options.maxMemoryMegabytes,
    });
    if (!outcome.ok) throw new ScriptFailedError(withLogs(`the script failed: ${outcome.message}`, outcome));
    return withLogs(outcome.value ?? 'undefined', outcome);
  };
  return Object.freeze({ ...base, [scriptRunner]: run });
}

/** The script's console output, when it printed any, before its result. */
function withLogs(text: string, outcome: ScriptOutcome): string {
  if (outcome.logs.length === 0) return text;
  return `console output:\n${outcome.logs.join('\n')}\n\nresult:\n${text}`;
}
