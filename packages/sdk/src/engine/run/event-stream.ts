/**
 * The events of one run as this process sees them: every event since the run began here is kept,
 * so a reader that starts late replays them all, then follows live until the run settles. Shared
 * by agent runs and workflow runs.
 */
export class EventStream<Event> {
  private readonly buffered: Event[] = [];
  private readonly waiters = new Set<() => void>();
  private ended = false;

  /** Adds an event and wakes the readers. */
  push(event: Event): void {
    this.buffered.push(event);
    this.wake();
  }

  /** Marks the stream complete: readers finish once they have read everything. */
  end(): void {
    this.ended = true;
    this.wake();
  }

  /** Reads every event from the first, then live ones, until the stream ends. */
  async *read(): AsyncGenerator<Event, void, undefined> {
    let index = 0;
    for (;;) {
      while (index < this.buffered.length) {
        yield this.buffered[index] as Event;
        index += 1;
      }
      if (this.ended) return;
      await new Promise<void>((resolve) => this.waiters.add(resolve));
    }
  }

  private wake(): void {
    for (const waiter of this.waiters) waiter();
    this.waiters.clear();
  }
}
