/**
 * A follower's listener: called after a write to its run, with the journal's last sequence after
 * that write when the store knows it (`undefined`: anything may have changed, read).
 */
export type RunChangeListener = (through?: number) => void;

/**
 * Wake-ups for followers (issue 34, ADR 0025): who waits for a run's next entries registers a
 * listener here, and the store calls `notify(runId, through)` after each write to that run
 * commits. A listener is a signal only (possibly more than once per write), with at most the
 * journal's last sequence after the write: the follower reads the journal itself, so a missed or
 * extra wake-up never changes what it yields.
 */
export class RunChangeNotifier {
  private readonly listeners = new Map<string, Set<RunChangeListener>>();

  /** Registers `listener` for writes to `runId`; returns the function that removes it. */
  watch(runId: string, listener: RunChangeListener): () => void {
    let set = this.listeners.get(runId);
    if (!set) {
      set = new Set();
      this.listeners.set(runId, set);
    }
    set.add(listener);
    return () => {
      const current = this.listeners.get(runId);
      if (!current) return;
      current.delete(listener);
      if (current.size === 0) this.listeners.delete(runId);
    };
  }

  /** The runs someone waits for. */
  watchedRuns(): string[] {
    return [...this.listeners.keys()];
  }

  /** How many listeners wait, on all runs. */
  get size(): number {
    let size = 0;
    for (const set of this.listeners.values()) size += set.size;
    return size;
  }

  /**
   * Wakes the listeners of `runId`; `through`: the journal's last sequence after the write, when
   * known. A listener that throws does not keep the others asleep.
   */
  notify(runId: string, through?: number): void {
    const set = this.listeners.get(runId);
    if (!set) return;
    for (const listener of [...set]) {
      try {
        listener(through);
      } catch {
        // A follower's wake-up is a signal; its failure is the follower's to report.
      }
    }
  }

  /** Wakes every listener (a change whose run is unknown: another process wrote to the file). */
  notifyAll(): void {
    for (const runId of [...this.listeners.keys()]) this.notify(runId);
  }
}
