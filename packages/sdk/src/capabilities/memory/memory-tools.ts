import { createHash } from 'node:crypto';
import { z } from 'zod';
import { AgentLoomError, hasErrorCode } from '../../core/errors/agentloom-error.js';
import { type Tool, type ToolExecutionContext, tool } from '../tools/tool.js';
import type { FactStore, MemoryScope } from './fact-store.js';

/** Options of an agent's memory (N-15). */
export interface MemoryOptions {
  store: FactStore;
  /**
   * Most characters of facts one `recall` puts into the context (a size budget); newest facts
   * first. Default 4,000 (about 1,000 tokens).
   */
  budgetCharacters?: number;
  /** Longest fact `remember` accepts. Default 1,000 characters. */
  maximumFactCharacters?: number;
}

/** A memory tool was called in a run that names no user: the host must pass `metadata.userId`. */
export class MemoryScopeMissingError extends AgentLoomError {
  readonly retryable = false;

  constructor() {
    super('memory-scope-missing', 'memory needs the user of the run: start it with metadata.userId');
  }

  static override isInstance(error: unknown): error is MemoryScopeMissingError {
    return hasErrorCode(error, 'memory-scope-missing');
  }
}

/**
 * A fact's id is its text's (spaces and case aside): the same fact written twice — a call retried
 * after a crash, or repeated by a model that saw an unknown outcome — is one fact.
 */
function factIdOf(text: string): string {
  const normalized = text.trim().replace(/\s+/g, ' ').toLowerCase();
  return `fact_${createHash('sha256').update(normalized).digest('base64url').slice(0, 22)}`;
}

function scopeOf(context: ToolExecutionContext): MemoryScope {
  const user = context.metadata?.userId;
  if (!user) throw new MemoryScopeMissingError();
  return { agent: context.agentName ?? 'agent', user };
}

/**
 * The memory tools (N-15): `remember`, `recall` and `forget` over a `FactStore`, scoped to the
 * agent and the run's `metadata.userId`. A fact's id comes from its text, so writing it again is
 * harmless, whoever repeats it.
 */
export function createMemoryTools(options: MemoryOptions): Tool[] {
  const budget = options.budgetCharacters ?? 4_000;
  const longest = options.maximumFactCharacters ?? 1_000;
  const remember = tool({
    name: 'remember',
    description: 'Remembers one short fact about the user or the task for later sessions.',
    parameters: z.object({ fact: z.string().min(1).max(longest).describe('The fact, in one sentence.') }),
    execute: async ({ fact }, context) => {
      const { created } = await options.store.remember(scopeOf(context), {
        factId: factIdOf(fact),
        text: fact,
        createdAt: Date.now(),
      });
      return created ? `remembered (${factIdOf(fact)})` : `already remembered (${factIdOf(fact)})`;
    },
  });
  const recall = tool({
    name: 'recall',
    description: 'Recalls remembered facts, newest first; give a query to find facts containing its words.',
    parameters: z.object({ query: z.string().optional() }),
    execute: async ({ query }, context) => {
      const facts = await options.store.recall(scopeOf(context), query ? { query } : {});
      const lines: string[] = [];
      let used = 0;
      for (const fact of facts) {
        const line = `${fact.factId}: ${fact.text}`;
        if (used + line.length > budget) break;
        lines.push(line);
        used += line.length + 1;
      }
      if (facts.length === 0) return 'nothing remembered';
      const left = facts.length - lines.length;
      return left > 0 ? [...lines, `(${left} older facts not shown: narrow the query)`].join('\n') : lines.join('\n');
    },
  });
  const forget = tool({
    name: 'forget',
    description: 'Forgets a remembered fact by its id (as recall shows it).',
    parameters: z.object({ factId: z.string().min(1) }),
    execute: async ({ factId }, context) => {
      const { forgotten } = await options.store.forget(scopeOf(context), factId);
      return forgotten ? `forgot ${factId}` : `no fact ${factId}`;
    },
  });
  return [remember, recall, forget];
}
