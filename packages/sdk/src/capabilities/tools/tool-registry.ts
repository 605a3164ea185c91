import { z } from 'zod';
import { InvalidConfigurationError } from '../../core/errors/index.js';
import { type Tool, tool, toToolDefinition } from './tool.js';
import { DeferredToolNotFoundError, InvalidToolArgumentsError } from './tool-registry-errors.js';
import { searchTools, type ToolSearchHit } from './tool-search.js';

/** Options of `createToolRegistry`. */
export interface ToolRegistryOptions {
  /** Tools whose definitions the model always sees. */
  tools?: readonly Tool[];
  /** Tools loaded on demand (N-5): the model finds them with `tool_search` and calls them with `call_tool`. */
  deferred?: readonly Tool[];
  /** Most tools one search returns. Default 5. */
  searchLimit?: number;
}

/** A set of tools where large or rarely used ones are loaded only when the model looks for them. */
export interface ToolRegistry {
  /** What to give the agent: the always-loaded tools, plus `tool_search` and `call_tool` when there are deferred tools. */
  readonly tools: readonly Tool[];
  /** The deferred tools. */
  readonly deferred: readonly Tool[];
  /** Ranks the deferred tools against a query (what `tool_search` does). */
  search(query: string, limit?: number): ToolSearchHit[];
  /** A context section naming the deferred tools, so that the model knows to search for them. */
  readonly promptSection: string;
}

/**
 * Creates a tool registry with deferred loading (N-5). The definitions the model sees never change
 * during a run (N-4: a stable prompt prefix): deferred tools are not added as definitions when
 * found; `tool_search` returns their names, descriptions and JSON Schemas, and `call_tool` runs one
 * by name with the same context (run, session, operation id, attempt, signal), after validating its
 * arguments against its schema. Errors of the inner tool pass through unchanged, so the retry
 * classification sees them as if the tool had been called directly.
 */
export function createToolRegistry(options: ToolRegistryOptions): ToolRegistry {
  const direct = [...(options.tools ?? [])];
  const deferred = [...(options.deferred ?? [])];
  const limit = options.searchLimit ?? 5;
  const seen = new Set<string>();
  const issues: { path: string; message: string }[] = [];
  for (const item of [...direct, ...deferred]) {
    if (seen.has(item.name)) issues.push({ path: item.name, message: 'duplicate tool name' });
    seen.add(item.name);
  }
  for (const reserved of ['tool_search', 'call_tool']) {
    if (deferred.length > 0 && seen.has(reserved))
      issues.push({ path: reserved, message: 'this name is reserved by the registry' });
  }
  if (issues.length > 0) throw new InvalidConfigurationError('tool registry', issues);
  const byName = new Map(deferred.map((item) => [item.name, item]));
  const search = (query: string, size = limit) => searchTools(deferred, query, size);

  const toolSearch = tool({
    name: 'tool_search',
    description:
      'Finds tools that are loaded on demand. Give keywords, or "select:name1,name2" for exact names. Returns each tool\'s name, ' +
      'description and JSON Schema of its arguments; call one with call_tool.',
    parameters: z.object({ query: z.string().min(1), limit: z.number().int().min(1).max(20).optional() }),
    execute: ({ query, limit: size }) => {
      const hits = search(query, size);
      if (hits.length === 0) return 'No tool matches; try other keywords.';
      return JSON.stringify(hits.map(({ tool: found }) => toToolDefinition(found)));
    },
  });

  const callTool = tool({
    name: 'call_tool',
    description: 'Calls a tool found with tool_search, by its exact name, with arguments matching its JSON Schema.',
    parameters: z.object({ name: z.string().min(1), arguments: z.record(z.string(), z.unknown()).default({}) }),
    execute: async ({ name, arguments: args }, context) => {
      const target = byName.get(name);
      if (!target) throw new DeferredToolNotFoundError(name);
      const parsed = target.parameters.safeParse(args);
      if (!parsed.success) {
        throw new InvalidToolArgumentsError(
          name,
          parsed.error.issues.map((issue) => `${issue.path.join('.') || '(input)'}: ${issue.message}`).join('; '),
        );
      }
      return target.execute(parsed.data, context);
    },
  });

  const promptSection =
    deferred.length === 0
      ? ''
      : [
          '# Tools loaded on demand',
          'These tools exist but are not listed above; find them with tool_search and call them with call_tool:',
          deferred
            .map((item) => item.name)
            .sort()
            .join(', '),
        ].join('\n');

  return {
    tools: Object.freeze(deferred.length > 0 ? [...direct, toolSearch, callTool] : direct),
    deferred: Object.freeze(deferred),
    search,
    promptSection,
  };
}
