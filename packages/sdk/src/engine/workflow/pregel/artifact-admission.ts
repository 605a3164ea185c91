import type { ArtifactSets } from '../graph/graph-definition.js';
import type { PlannedTask } from './workflow-state.js';

/** Whether two tasks touching these artifacts may not run at the same time: one writes what the other reads or writes. */
export function artifactsConflict(left: ArtifactSets | undefined, right: ArtifactSets | undefined): boolean {
  if (!left || !right) return false;
  const touches = (writes: readonly string[] | undefined, other: ArtifactSets) =>
    (writes ?? []).some((name) => (other.writes ?? []).includes(name) || (other.reads ?? []).includes(name));
  return touches(left.writes, right) || touches(right.writes, left);
}

/**
 * Admits a superstep's tasks to the runner's workers in planned order, holding back a task whose
 * artifacts conflict with a task running now (seed 004 Q1: two writers of one artifact never
 * overlap; read-only tasks may). A held task is admitted as soon as the task in its way finishes,
 * ahead of later tasks, so the order stays the planned one wherever the sets allow. Tasks that
 * declare nothing are admitted as they come, exactly as before.
 */
export class ArtifactAdmission {
  private readonly pending: PlannedTask[];
  private readonly running = new Set<PlannedTask>();
  private waiters: (() => void)[] = [];

  constructor(
    tasks: readonly PlannedTask[],
    private readonly artifactsOf: (task: PlannedTask) => ArtifactSets | undefined,
  ) {
    this.pending = [...tasks];
  }

  /** The next task a worker may start, waiting while every pending one conflicts; undefined when none is left. */
  async next(): Promise<PlannedTask | undefined> {
    for (;;) {
      if (this.pending.length === 0) return undefined;
      const index = this.pending.findIndex(
        (task) => ![...this.running].some((other) => artifactsConflict(this.artifactsOf(task), this.artifactsOf(other))),
      );
      if (index >= 0) {
        const [task] = this.pending.splice(index, 1) as [PlannedTask];
        this.running.add(task);
        return task;
      }
      // Every pending task waits for a running one (there is one: a task alone conflicts with nothing).
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
  }

  /** A task settled: what waited for its artifacts may start. */
  finished(task: PlannedTask): void {
    this.running.delete(task);
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();
  }
}
