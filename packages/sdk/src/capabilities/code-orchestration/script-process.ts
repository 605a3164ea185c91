import { spawn } from 'node:child_process';
import path from 'node:path';
import { z } from 'zod';
import type { Failure } from '../../core/failure.js';
import type { Sandbox } from '../../sandbox/sandbox.js';
import type { MountBinding } from '../../sandbox/workspace-view.js';
import { scriptRunnerSource } from './script-runner-source.js';

/** What a tool call made by a script came to: its content, or the failure the script sees as an error. */
export type ScriptCallOutcome = { ok: true; content: string } | { ok: false; failure: Failure };

/**
 * Runs one tool call of a script (the engine's side): `index` counts the script's calls from 0
 * in the order it made them. Throwing ends the script at once (control flow: stop, deadline).
 */
export type ScriptToolCaller = (index: number, name: string, args: unknown) => Promise<ScriptCallOutcome>;

/** One script run: what to run, where, and with which limits. */
export interface ScriptProcessRequest {
  sandbox: Sandbox;
  source: string;
  /** The run the script belongs to (the sandbox's view scope). */
  scope: { sessionId: string; runId: string };
  /** The names the script may call as `tools.<name>(args)`. */
  toolNames: readonly string[];
  callTool: ScriptToolCaller;
  /** Aborting kills the script process at once (attempt timeout, stop, deadline). */
  signal: AbortSignal;
  maxToolCalls: number;
  /** Limit on everything the script sends back (calls, logs, result); it is killed past it. */
  maxOutputBytes: number;
  /** Heap limit of the script's JavaScript engine. */
  maxMemoryMegabytes: number;
}

/** How a script ended: its return value (JSON text, absent for `undefined`) and its console output. */
export type ScriptOutcome = { ok: true; value?: string; logs: string[] } | { ok: false; message: string; logs: string[] };

const messageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('call'), index: z.number().int().min(0), name: z.string(), arguments: z.unknown() }),
  z.object({ type: z.literal('log'), text: z.string() }),
  z.object({
    type: z.literal('done'),
    ok: z.boolean(),
    value: z.string().optional(),
    error: z.object({ name: z.string(), message: z.string() }).optional(),
  }),
]);

/**
 * Starts the script runner inside the sandbox (`Sandbox.launch`: for bubblewrap, fresh namespaces
 * without network that see only system programs) under Node's permission model (no file system,
 * no child processes, no workers), and serves its tool calls one at a time, in index order, each
 * through `callTool`. Lines from the script are untrusted: anything malformed, out of order or over
 * the limits ends it with a failure; a thrown `callTool` kills it and is rethrown.
 */
export function runScriptProcess(request: ScriptProcessRequest): Promise<ScriptOutcome> {
  const { sandbox, signal } = request;
  signal.throwIfAborted();
  const node = process.execPath;
  const launch = sandbox.launch({
    view: { scope: request.scope, mounts: scriptMounts(sandbox) },
    command: node,
    args: [permissionFlag(), '--no-warnings', `--max-old-space-size=${request.maxMemoryMegabytes}`, '--eval', scriptRunnerSource],
    ...(node.startsWith('/usr/') ? {} : { readOnlyPaths: [path.dirname(node)] }),
  });
  const child = spawn(launch.command, launch.args, {
    env: launch.env,
    ...(launch.cwd ? { cwd: launch.cwd } : {}),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  return new Promise<ScriptOutcome>((resolve, reject) => {
    const logs: string[] = [];
    let received = 0;
    let expected = 0;
    let settled = false;
    let done: ScriptOutcome | undefined;
    let queue: Promise<void> = Promise.resolve();
    let stderr = '';
    const settle = (outcome: { value?: ScriptOutcome; error?: unknown }) => {
      if (settled) return;
      settled = true;
      signal.removeEventListener('abort', onAbort);
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      if (outcome.error !== undefined) reject(outcome.error);
      else resolve(outcome.value as ScriptOutcome);
    };
    const fail = (message: string) => settle({ value: { ok: false, message, logs } });
    const onAbort = () => settle({ error: signal.reason ?? new Error('the script was aborted') });
    signal.addEventListener('abort', onAbort, { once: true });
    const serve = async (index: number, name: string, args: unknown) => {
      let outcome: ScriptCallOutcome;
      if (index >= request.maxToolCalls) {
        outcome = {
          ok: false,
          failure: { kind: 'tool-error', message: `a script may make at most ${request.maxToolCalls} tool calls` },
        };
      } else {
        try {
          outcome = await request.callTool(index, name, args);
        } catch (error) {
          settle({ error });
          return;
        }
      }
      if (settled) return;
      const reply = outcome.ok
        ? { type: 'result', index, ok: true, content: outcome.content }
        : { type: 'result', index, ok: false, error: { kind: outcome.failure.kind, message: outcome.failure.message } };
      child.stdin.write(`${JSON.stringify(reply)}\n`);
    };
    const onLine = (line: string) => {
      let parsed: z.infer<typeof messageSchema>;
      try {
        parsed = messageSchema.parse(JSON.parse(line));
      } catch {
        fail('the script runner sent a malformed message');
        return;
      }
      if (parsed.type === 'log') logs.push(parsed.text);
      else if (parsed.type === 'done') {
        done = parsed.ok
          ? { ok: true, ...(parsed.value !== undefined ? { value: parsed.value } : {}), logs }
          : { ok: false, message: `${parsed.error?.name ?? 'Error'}: ${parsed.error?.message ?? 'the script failed'}`, logs };
      } else {
        if (parsed.index !== expected) {
          fail(`the script runner sent call ${parsed.index} where call ${expected} was due`);
          return;
        }
        expected += 1;
        const { index, name } = parsed;
        queue = queue.then(() => serve(index, name, parsed.arguments));
      }
    };
    let buffer = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      received += Buffer.byteLength(chunk);
      if (received > request.maxOutputBytes) {
        fail(`the script sent more than ${request.maxOutputBytes} bytes (tool arguments, console output and result)`);
        return;
      }
      buffer += chunk;
      for (let newline = buffer.indexOf('\n'); newline >= 0 && !settled; newline = buffer.indexOf('\n')) {
        onLine(buffer.slice(0, newline));
        buffer = buffer.slice(newline + 1);
      }
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      if (stderr.length < 4_000) stderr += chunk;
    });
    child.stdin.on('error', () => {});
    child.on('error', (error) => fail(`the script runner did not start: ${error.message}`));
    child.on('close', (code, exitSignal) => {
      if (done) {
        // A call the script did not wait for still ends before the script's result is given.
        const finished = done;
        void queue.then(() => settle({ value: finished }));
        return;
      }
      const how = exitSignal ? `was killed (${exitSignal})` : `exited with code ${code}`;
      fail(`the script process ${how} before it finished${stderr.trim() ? `: ${stderr.trim().slice(0, 1_000)}` : ''}`);
    });
    child.stdin.write(`${JSON.stringify({ type: 'start', source: request.source, tools: request.toolNames })}\n`);
  });
}

/**
 * The view a script sees: nothing of the workspace in an isolating sandbox; a non-isolating one
 * (which needs a `/work` to start in) starts in the system's temporary directory.
 */
function scriptMounts(sandbox: Sandbox): MountBinding[] {
  if (sandbox.isolating) return [];
  return [{ kind: 'work', virtualPath: '/work', base: '/tmp', baseSegments: [], writable: false } as MountBinding];
}

/** Node's permission model flag: `--permission` from Node 23.5, `--experimental-permission` before. */
function permissionFlag(): string {
  const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
  return major > 23 || (major === 23 && minor >= 5) ? '--permission' : '--experimental-permission';
}
