import { z } from 'zod';
import { type Tool, tool } from '../capabilities/tools/tool.js';
import type { CommandResult } from './sandbox.js';
import type { Workspace } from './workspace.js';

/**
 * The `run_command` tool: runs a shell command (a skill's script, a build step) in the workspace's
 * sandbox, in `/work`, seeing only the calling run's view (K-2): skills read-only, the work
 * directory writable. The run's limits apply (time, output); a non-zero exit is a normal result
 * the model reads, not a failure. Aborting the attempt (timeout, stop) kills the process tree.
 */
export function createCommandTool(workspace: Workspace): Tool {
  const sandbox = workspace.sandbox;
  if (!sandbox) throw new Error('createCommandTool needs a workspace with a sandbox');
  const { commandTimeoutMs, commandOutputBytes, diskQuotaBytes, commandProcesses, commandTemporaryBytes } = workspace.limits;
  return tool({
    name: 'run_command',
    description:
      `Runs a shell command (sh -c) in ${sandbox.isolating ? 'a sandbox that sees only the workspace' : 'a child process'}, in /work. ` +
      'Skills are read-only under /skills/<name>; write results under /work. ' +
      `Time limit ${commandTimeoutMs} ms, output limit ${commandOutputBytes} bytes.`,
    parameters: z.object({
      command: z.string().min(1).describe('The shell command, e.g. sh /skills/<name>/scripts/run.sh input.txt'),
    }),
    execute: async ({ command }, context) => {
      const view = await workspace.prepare({ sessionId: context.sessionId, runId: context.runId });
      const result = await sandbox.runCommand({
        view,
        command,
        timeoutMs: commandTimeoutMs,
        maxOutputBytes: commandOutputBytes,
        signal: context.signal,
        diskQuotaBytes,
        maxProcesses: commandProcesses,
        temporaryBytes: commandTemporaryBytes,
      });
      if (result.aborted) throw context.signal.reason ?? new Error('the command was aborted');
      return describeCommandResult(result, { timeoutMs: commandTimeoutMs, outputBytes: commandOutputBytes, diskQuotaBytes });
    },
  });
}

/** The text the model reads for a finished command. */
export function describeCommandResult(
  result: CommandResult,
  limits: { timeoutMs: number; outputBytes: number; diskQuotaBytes?: number },
): string {
  const lines = [`exit code: ${result.exitCode ?? `killed (${result.signal ?? 'signal'})`}`];
  if (result.timedOut) lines.push(`[stopped: ran past the ${limits.timeoutMs} ms limit]`);
  if (result.outputLimited) lines.push(`[stopped: output passed ${limits.outputBytes} bytes; cut there]`);
  if (result.diskQuotaExceeded)
    lines.push(
      `[stopped: the work directory passed its disk quota of ${limits.diskQuotaBytes} bytes; delete files to make room]`,
    );
  lines.push('--- stdout ---', result.stdout.trimEnd());
  if (result.stderr.trim() !== '') lines.push('--- stderr ---', result.stderr.trimEnd());
  return lines.join('\n');
}
