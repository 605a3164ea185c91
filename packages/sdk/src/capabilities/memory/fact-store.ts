/**
 * The memory port (N-15): facts an agent keeps across sessions, scoped to one agent and one user
 * of the host. The memory tools derive a fact's id from its text, so writing it again after a
 * crash (or twice) changes nothing: one fact, never two.
 */

/** Whose facts: the agent's name and the user id the host gave the run (`metadata.userId`). */
export interface MemoryScope {
  agent: string;
  user: string;
}

/** One remembered fact. */
export interface MemoryFact {
  factId: string;
  text: string;
  /** Epoch milliseconds when it was first written. */
  createdAt: number;
}

/** A store of facts; implementations must pass `factStoreContract` (`@agentloom/sdk/testing`). */
export interface FactStore {
  /** Writes a fact unless one with this id exists in the scope; answers whether it was created. */
  remember(scope: MemoryScope, fact: MemoryFact): Promise<{ created: boolean }>;
  /**
   * The scope's facts, newest first; with `query`, only those containing every word of it
   * (case-insensitive). At most `limit`.
   */
  recall(scope: MemoryScope, options?: { query?: string; limit?: number }): Promise<MemoryFact[]>;
  /** Deletes a fact of the scope; answers whether it existed. */
  forget(scope: MemoryScope, factId: string): Promise<{ forgotten: boolean }>;
  close(): Promise<void>;
}

/** Whether `text` contains every word of `query`, ignoring case: the matching every store applies. */
export function matchesQuery(text: string, query: string | undefined): boolean {
  if (!query) return true;
  const lower = text.toLowerCase();
  return query
    .toLowerCase()
    .split(/\s+/)
    .filter((word) => word.length > 0)
    .every((word) => lower.includes(word));
}

/** A fact store in this process's memory: for tests and single-process tools that need no durability. */
export class InProcessFactStore implements FactStore {
  private readonly facts = new Map<string, Map<string, MemoryFact>>();

  async remember(scope: MemoryScope, fact: MemoryFact): Promise<{ created: boolean }> {
    const facts = this.scoped(scope);
    if (facts.has(fact.factId)) return { created: false };
    facts.set(fact.factId, { ...fact });
    return { created: true };
  }

  async recall(scope: MemoryScope, options: { query?: string; limit?: number } = {}): Promise<MemoryFact[]> {
    return [...this.scoped(scope).values()]
      .filter((fact) => matchesQuery(fact.text, options.query))
      .sort((left, right) => right.createdAt - left.createdAt || (left.factId < right.factId ? 1 : -1))
      .slice(0, options.limit ?? Number.MAX_SAFE_INTEGER)
      .map((fact) => ({ ...fact }));
  }

  async forget(scope: MemoryScope, factId: string): Promise<{ forgotten: boolean }> {
    return { forgotten: this.scoped(scope).delete(factId) };
  }

  async close(): Promise<void> {}

  private scoped(scope: MemoryScope): Map<string, MemoryFact> {
    const key = JSON.stringify([scope.agent, scope.user]);
    let facts = this.facts.get(key);
    if (!facts) {
      facts = new Map();
      this.facts.set(key, facts);
    }
    return facts;
  }
}
