/** Who a bus message is about: the trusted identity of its run (K-3). */
export interface BusIdentity {
  runId: string;
  sessionId: string;
  agentName: string;
}

/** One message on the bus: an event with the identity of the run it belongs to. */
export interface BusMessage<Event> {
  identity: BusIdentity;
  event: Event;
}

/**
 * The event bus port (K-3, L-8): every lifecycle step of every run is published once, with its
 * trusted identity, for observers such as telemetry, a UI's progress stream or audit. A deployment
 * with many processes can implement it over its own pub/sub.
 */
export interface EventBus<Event> {
  publish(message: BusMessage<Event>): void;
  /** Adds a listener; returns the function that removes it. */
  subscribe(listener: (message: BusMessage<Event>) => void): () => void;
}

/**
 * The in-process event bus. A listener that throws never disturbs the run or other listeners:
 * checkpoints, permissions, budgets and cleanup never depend on observers (K-10).
 */
export class InMemoryEventBus<Event> implements EventBus<Event> {
  private readonly listeners = new Set<(message: BusMessage<Event>) => void>();

  publish(message: BusMessage<Event>): void {
    for (const listener of this.listeners) {
      try {
        listener(message);
      } catch {
        // An observer's failure is its own.
      }
    }
  }

  subscribe(listener: (message: BusMessage<Event>) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
