import { z } from 'zod';
import { isTool, type Tool } from '../../capabilities/tools/tool.js';
import { InvalidConfigurationError } from '../../core/errors/index.js';
import type { Failure } from '../../core/failure.js';
import type { LanguageModel } from '../../model/language-model.js';
import type { RunStore } from '../../store/run-store.js';
import { type ExecutionOptions, executionOptionsSchema, type ResolvedExecution } from './execution-options.js';

/** The configuration of an agent (C-12): what it is, its model, tools, execution and store. */
export interface AgentConfig {
  /** Letters, digits, `_`, `-` and `.`; names the agent in records and telemetry. */
  name: string;
  description?: string;
  /** The execution mode; fixed for the agent's life (D-4). */
  mode: 'react';
  model: LanguageModel;
  /** The role's system prompt. Keep it free of per-second timestamps (N-4). */
  prompt: string;
  tools?: readonly Tool[];
  execution?: ExecutionOptions & {
    /** Replaces the default retry classification; reads typed failure fields only. */
    isRetryable?: (failure: Failure) => boolean;
  };
  /** Where runs are kept. Defaults to a new `MemoryRunStore`, which does not survive a crash. */
  store?: RunStore;
  /** Ownership lease of an executing process; renewed every third of it. Default 30 s. */
  leaseMs?: number;
}

/** An agent configuration with defaults resolved. */
export interface ResolvedAgentConfig {
  name: string;
  description: string;
  mode: 'react';
  model: LanguageModel;
  prompt: string;
  tools: readonly Tool[];
  execution: ResolvedExecution;
  isRetryable: ((failure: Failure) => boolean) | undefined;
  store: RunStore | undefined;
  leaseMs: number;
}

const storeMethods = ['acquire', 'renewLease', 'append', 'releaseLease', 'getRun', 'readJournal', 'listSessionRuns', 'close'];

const agentConfigSchema = z
  .object({
    name: z.string().regex(/^[A-Za-z0-9_.-]{1,128}$/, 'letters, digits, _, - and . only, 1 to 128 characters'),
    description: z.string().default(''),
    mode: z.literal('react'),
    model: z.custom<LanguageModel>(
      (value) =>
        typeof value === 'object' &&
        value !== null &&
        (value as LanguageModel).specificationVersion === 'v1' &&
        typeof (value as LanguageModel).doStream === 'function',
      'must be a LanguageModel (specificationVersion "v1" with doStream)',
    ),
    prompt: z.string(),
    tools: z
      .array(z.custom<Tool>(isTool, 'must be a tool made by tool()'))
      .default([])
      .superRefine((tools, issues) => {
        const seen = new Set<string>();
        for (const [index, item] of tools.entries()) {
          if (seen.has(item.name))
            issues.addIssue({ code: 'custom', path: [index], message: `duplicate tool name "${item.name}"` });
          seen.add(item.name);
        }
      }),
    execution: executionOptionsSchema
      .extend({ isRetryable: z.custom<(failure: Failure) => boolean>((value) => typeof value === 'function').optional() })
      .prefault({}),
    store: z
      .custom<RunStore>(
        (value) =>
          typeof value === 'object' &&
          value !== null &&
          storeMethods.every((method) => typeof (value as Record<string, unknown>)[method] === 'function'),
        'must implement RunStore',
      )
      .optional(),
    leaseMs: z.number().int().min(50).default(30_000),
  })
  .strict();

/**
 * Validates an agent configuration and fills in defaults; throws `InvalidConfigurationError`
 * listing every problem. Pure: creates nothing and starts nothing (B-4).
 */
export function resolveAgentConfig(config: AgentConfig): ResolvedAgentConfig {
  const parsed = agentConfigSchema.safeParse(config);
  if (!parsed.success) {
    const name = typeof (config as { name?: unknown })?.name === 'string' ? ` "${config.name}"` : '';
    throw new InvalidConfigurationError(
      `agent${name}`,
      parsed.error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message })),
    );
  }
  const { isRetryable, ...execution } = parsed.data.execution;
  return {
    name: parsed.data.name,
    description: parsed.data.description,
    mode: parsed.data.mode,
    model: parsed.data.model,
    prompt: parsed.data.prompt,
    tools: parsed.data.tools,
    execution,
    isRetryable,
    store: parsed.data.store,
    leaseMs: parsed.data.leaseMs,
  };
}
