/**
 * Runs the crash scenario in real child processes and kills them with SIGKILL at chosen points.
 * Shared by the crash tests of every durable store.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RunResult } from '../../src/core/run-result.js';
import { spawnTestScript } from '../helpers/child-process.js';

const here = dirname(fileURLToPath(import.meta.url));
const childScript = join(here, 'crash-child.ts');

/** What one child process did. */
export interface ChildOutcome {
  /** The point where it froze and was killed, with the entry types of the last write. */
  killedAt?: string;
  result?: RunResult;
  /** For each model request the process sent: how many times the run's input appeared in it. */
  inputCounts?: number[];
  ownedElsewhere: number;
  /** Store writes (appends) this process made. */
  appends?: number;
  exitSignal: NodeJS.Signals | null;
  stderr: string;
}

/** Environment of one child run. */
export interface ChildOptions {
  store: string;
  runId: string;
  effectsPath: string;
  parallel: boolean;
  retry: boolean;
  freezeAt?: string;
}

/**
 * Starts the child; if it reports a freeze point, kills it with SIGKILL right there (the child is
 * blocked synchronously, so nothing happens between the report and the kill).
 */
export async function runChild(options: ChildOptions): Promise<ChildOutcome> {
  const outcome: ChildOutcome = { ownedElsewhere: 0, exitSignal: null, stderr: '' };
  const environment = {
    CRASH_STORE: options.store,
    CRASH_RUN_ID: options.runId,
    CRASH_EFFECTS: options.effectsPath,
    CRASH_PARALLEL: options.parallel ? '1' : '0',
    CRASH_RETRY: options.retry ? '1' : '0',
    CRASH_FREEZE_AT: options.freezeAt ?? '',
  };
  const exit = await spawnTestScript(childScript, environment, (line, kill) => {
    if (line.startsWith('FROZEN ')) {
      outcome.killedAt = line.slice('FROZEN '.length);
      kill();
    } else if (line.startsWith('RESULT ')) outcome.result = JSON.parse(line.slice('RESULT '.length));
    else if (line.startsWith('INPUT-COUNTS ')) outcome.inputCounts = JSON.parse(line.slice('INPUT-COUNTS '.length));
    else if (line.startsWith('APPENDS ')) outcome.appends = Number(line.slice('APPENDS '.length));
    else if (line === 'OWNED-ELSEWHERE') outcome.ownedElsewhere += 1;
  });
  outcome.exitSignal = exit.exitSignal;
  outcome.stderr = exit.stderr;
  return outcome;
}

/** The side-effect lines the tools wrote: `<operationId> <tool> <attempt>`. */
export function readEffects(path: string): string[] {
  return existsSync(path) ? readFileSync(path, 'utf8').split('\n').filter(Boolean) : [];
}

/** How many times each operation's tool ran. */
export function countByOperation(lines: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const line of lines) {
    const operationId = line.split(' ')[0] as string;
    counts.set(operationId, (counts.get(operationId) ?? 0) + 1);
  }
  return counts;
}
