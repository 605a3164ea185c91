import { spawn } from 'node:child_process';
import { subscribeToAbort } from '../core/abort-subscription.js';
import { type DiskWatch, startDiskWatch } from './disk-usage.js';
import type { CommandResult } from './sandbox.js';
import { SandboxUnavailableError } from './sandbox-errors.js';

/** What to spawn and within which limits. */
export interface LimitedProcessOptions {
  command: string;
  args: readonly string[];
  env: Record<string, string>;
  cwd?: string;
  timeoutMs: number;
  maxOutputBytes: number;
  signal?: AbortSignal;
  /** Kill the process tree when these directories grow past their quota. */
  diskWatch?: DiskWatch;
}

/**
 * Runs a process to completion, killing its whole process group (SIGKILL) when it passes its time,
 * output or disk limit or when the signal aborts. Output past the limit is dropped. The process
 * starts in its own group (`detached`) so that nothing it forks outlives the kill.
 */
export async function runLimitedProcess(options: LimitedProcessOptions): Promise<CommandResult> {
  let diskQuotaExceeded = false;
  let killGroup: (() => void) | undefined;
  const watch = options.diskWatch
    ? await startDiskWatch(options.diskWatch, () => {
        diskQuotaExceeded = true;
        killGroup?.();
      })
    : undefined;
  try {
    const result = await spawnLimited(options, (kill) => {
      killGroup = kill;
    });
    return { ...result, diskQuotaExceeded };
  } finally {
    watch?.stop();
  }
}

function spawnLimited(
  options: LimitedProcessOptions,
  onStarted: (kill: () => void) => void,
): Promise<Omit<CommandResult, 'diskQuotaExceeded'>> {
  return new Promise((resolve, reject) => {
    if (options.signal?.aborted) {
      resolve(emptyResult({ aborted: true }));
      return;
    }
    const child = spawn(options.command, [...options.args], {
      env: options.env,
      ...(options.cwd ? { cwd: options.cwd } : {}),
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    let bytes = 0;
    let timedOut = false;
    let outputLimited = false;
    let aborted = false;
    const kill = () => {
      if (child.pid === undefined) return;
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // The group is already gone.
      }
    };
    const collect = (target: Buffer[]) => (chunk: Buffer) => {
      const room = options.maxOutputBytes - bytes;
      if (room <= 0) return;
      target.push(chunk.length > room ? chunk.subarray(0, room) : chunk);
      bytes += Math.min(chunk.length, room);
      if (chunk.length > room && !outputLimited) {
        outputLimited = true;
        kill();
      }
    };
    onStarted(kill);
    child.stdout.on('data', collect(stdout));
    child.stderr.on('data', collect(stderr));
    const timer = setTimeout(() => {
      timedOut = true;
      kill();
    }, options.timeoutMs);
    const abortSubscription = subscribeToAbort(options.signal, () => {
      aborted = true;
      kill();
    });
    child.on('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      abortSubscription.unsubscribe();
      if (error.code === 'ENOENT')
        reject(new SandboxUnavailableError(`cannot start "${options.command}": not found`, { cause: error }));
      else reject(error);
    });
    child.on('close', (exitCode, signal) => {
      clearTimeout(timer);
      abortSubscription.unsubscribe();
      kill();
      resolve({
        exitCode,
        signal,
        stdout: Buffer.concat(stdout).toString('utf8'),
        stderr: Buffer.concat(stderr).toString('utf8'),
        timedOut,
        outputLimited,
        aborted,
      });
    });
  });
}

function emptyResult(overrides: Partial<CommandResult>): Omit<CommandResult, 'diskQuotaExceeded'> {
  return {
    exitCode: null,
    signal: null,
    stdout: '',
    stderr: '',
    timedOut: false,
    outputLimited: false,
    aborted: false,
    ...overrides,
  };
}
