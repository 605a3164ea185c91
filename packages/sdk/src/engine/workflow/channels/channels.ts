import type { AnyStateField } from './state-fields.js';

/**
 * A channel of the superstep engine: a named value that tasks write and nodes are triggered by
 * (the design LangGraph's Pregel engine uses, written here). Writes of one superstep are given to
 * `update` together, in the tasks' planned order; the engine gives the channel a new version
 * whenever `update` (or `consume`) reports a change.
 */
export interface Channel {
  /** Applies one superstep's writes (possibly none); returns whether the value changed. */
  update(values: readonly unknown[]): boolean;
  /** Whether a node listening to this channel may be triggered by it now. */
  isAvailable(): boolean;
  /** The current value. */
  get(): unknown;
  /** Called once a triggered task has run; a barrier resets here. Returns whether it changed. */
  consume(): boolean;
  /** Whether an empty update clears it (it holds a value for one superstep only). */
  readonly ephemeral: boolean;
}

/** A state field as a channel: its reducer folds the superstep's updates in planned order. */
export class FieldChannel implements Channel {
  readonly ephemeral = false;
  private value: unknown;
  private readonly field: AnyStateField;

  constructor(field: AnyStateField) {
    this.field = field;
    this.value = field.initial();
  }

  update(values: readonly unknown[]): boolean {
    if (values.length === 0) return false;
    let value = this.value;
    for (const update of values) value = this.field.reduce(value, update);
    this.value = value;
    return true;
  }

  isAvailable(): boolean {
    return true;
  }

  get(): unknown {
    return this.value;
  }

  consume(): boolean {
    return false;
  }
}

/** A node's trigger (`to:<node>`): set by an edge for one superstep, cleared by the next. */
export class TriggerChannel implements Channel {
  readonly ephemeral = true;
  private set = false;

  update(values: readonly unknown[]): boolean {
    if (values.length > 0) {
      this.set = true;
      return true;
    }
    if (!this.set) return false;
    this.set = false;
    return true;
  }

  isAvailable(): boolean {
    return this.set;
  }

  get(): unknown {
    return this.set;
  }

  consume(): boolean {
    return false;
  }
}

/**
 * A join (`join:<target>:<sources>`): each source writes its own name when it finishes; the join
 * is available once every source has arrived, possibly over several supersteps, or once the
 * planner released it because the missing sources can no longer run (W-8). Running the target
 * consumes it, so a join inside a loop waits afresh on the next round.
 */
export class JoinChannel implements Channel {
  readonly ephemeral = false;
  readonly sources: readonly string[];
  private readonly seen = new Set<string>();
  private released = false;

  constructor(sources: readonly string[]) {
    this.sources = sources;
  }

  update(values: readonly unknown[]): boolean {
    let changed = false;
    for (const value of values) {
      const name = value as string;
      if (!this.seen.has(name)) {
        this.seen.add(name);
        changed = true;
      }
    }
    return changed;
  }

  isAvailable(): boolean {
    return this.released || (this.seen.size > 0 && this.seen.size === this.sources.length);
  }

  /** The sources that have arrived since the join last fired, in declaration order. */
  get(): string[] {
    return this.sources.filter((source) => this.seen.has(source));
  }

  /** Whether some but not all sources have arrived and the join has not been released. */
  isPartial(): boolean {
    return !this.released && this.seen.size > 0 && this.seen.size < this.sources.length;
  }

  /** The sources still awaited. */
  missing(): string[] {
    return this.sources.filter((source) => !this.seen.has(source));
  }

  /** Lets the join fire with the sources it has: the others were not taken (W-8). */
  release(): void {
    this.released = true;
  }

  consume(): boolean {
    // Only a join that fired is used up; arrivals of a join still waiting are kept even when its
    // target runs for another reason (a plain edge into it).
    if (!this.isAvailable()) return false;
    this.seen.clear();
    this.released = false;
    return true;
  }
}

/** One dynamic task request (send-style fan-out): run `node` once with `payload` as its input. */
export interface SendRequest {
  node: string;
  payload: unknown;
}

/** The send requests written in one superstep; they become the next superstep's push tasks. */
export class SendsChannel implements Channel {
  readonly ephemeral = true;
  private requests: SendRequest[] = [];

  update(values: readonly unknown[]): boolean {
    if (values.length === 0) {
      if (this.requests.length === 0) return false;
      this.requests = [];
      return true;
    }
    this.requests = values as SendRequest[];
    return true;
  }

  isAvailable(): boolean {
    return this.requests.length > 0;
  }

  get(): SendRequest[] {
    return this.requests;
  }

  consume(): boolean {
    return false;
  }
}

/** A loop's iteration counter (`loop:<from>`): the number of passes since the loop was entered. */
export class CounterChannel implements Channel {
  readonly ephemeral = false;
  private value = 0;

  update(values: readonly unknown[]): boolean {
    if (values.length === 0) return false;
    const next = values[values.length - 1] as number;
    if (next === this.value) return false;
    this.value = next;
    return true;
  }

  isAvailable(): boolean {
    return true;
  }

  get(): number {
    return this.value;
  }

  consume(): boolean {
    return false;
  }
}
