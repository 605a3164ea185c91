import type { AgentReleaseSnapshot } from './release-snapshot.js';

/**
 * What a run needs from the worker that executes it. `isolation`: its agent runs commands
 * (`run_command`) or the model's scripts (code orchestration), which only run inside a bubblewrap
 * sandbox (NOT-18), so a worker without bubblewrap never claims it.
 */
export interface RunRequirements {
  isolation: boolean;
}

/**
 * What a worker can execute. `isolation`: bubblewrap runs here, so the worker can take runs
 * whose agent runs commands (NOT-18: never on the host, never on path checks alone).
 */
export type WorkerCapabilities = { isolation: boolean };

/**
 * True when an agent of this release runs commands: some role has the `run_command` built-in,
 * which the assembly gives a bubblewrap sandbox (NOT-18), so only a worker that can isolate may
 * execute it.
 */
export function releaseRunsCommands(snapshot: AgentReleaseSnapshot): boolean {
  return [snapshot.entry, ...snapshot.executors].some((role) => role.builtIn.includes('run_command'));
}

/** True when the release's model may write scripts (code orchestration, N-15): they run only in bubblewrap (ADR 0032). */
export function releaseRunsScripts(snapshot: AgentReleaseSnapshot): boolean {
  return snapshot.execution.codeOrchestration?.enabled === true;
}

/**
 * True when a run of this release needs a worker that can isolate (NOT-18): its agent runs
 * commands, or runs the model's scripts (ADR 0032); a worker without bubblewrap never claims it.
 */
export function releaseNeedsIsolation(snapshot: AgentReleaseSnapshot): boolean {
  return releaseRunsCommands(snapshot) || releaseRunsScripts(snapshot);
}

/** Whether a worker with `capabilities` may execute a run that needs `requirements`. */
export function capabilitiesMeet(capabilities: WorkerCapabilities, requirements: RunRequirements): boolean {
  return capabilities.isolation || !requirements.isolation;
}
