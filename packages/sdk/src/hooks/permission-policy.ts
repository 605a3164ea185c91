import { z } from 'zod';

/** One permission rule (N-1): which tool calls it matches, and what to do with them. */
export interface PermissionRule {
  /** A tool name, or a pattern with `*` (any characters) and `?` (one character). */
  tool: string;
  /** Argument patterns: each named argument (as text) must match its glob pattern or RegExp. */
  arguments?: Readonly<Record<string, string | RegExp>>;
  decision: 'allow' | 'ask' | 'deny';
  reason?: string;
}

/** A permission policy: rules, and what applies when none matches. */
export interface PermissionPolicy {
  rules?: readonly PermissionRule[];
  /** Decision when no rule matches; default `allow`. */
  default?: 'allow' | 'ask' | 'deny';
}

/** Validates a permission policy at construction. */
export const permissionPolicySchema = z
  .object({
    rules: z
      .array(
        z
          .object({
            tool: z.string().min(1),
            arguments: z.record(z.string(), z.union([z.string(), z.instanceof(RegExp)])).optional(),
            decision: z.enum(['allow', 'ask', 'deny']),
            reason: z.string().optional(),
          })
          .strict(),
      )
      .default([]),
    default: z.enum(['allow', 'ask', 'deny']).default('allow'),
  })
  .strict();

/** What a policy says about one call, and why. */
export interface PermissionVerdict {
  decision: 'allow' | 'ask' | 'deny';
  reason: string;
}

/**
 * Evaluates a call against the policy (N-1): every matching rule counts, and deny beats ask, which
 * beats allow; with no match the default applies. The policy sees the effective arguments, after
 * hooks modified them (K-9). Executors are bound by the same policy as the planner.
 */
export function evaluatePermission(policy: PermissionPolicy | undefined, toolName: string, args: unknown): PermissionVerdict {
  const matching = (policy?.rules ?? []).filter(
    (rule) => matchesGlob(rule.tool, toolName) && matchesArguments(rule.arguments, args),
  );
  for (const decision of ['deny', 'ask', 'allow'] as const) {
    const rule = matching.find((candidate) => candidate.decision === decision);
    if (rule) return { decision, reason: rule.reason ?? `permission rule for ${rule.tool}: ${decision}` };
  }
  const fallback = policy?.default ?? 'allow';
  return { decision: fallback, reason: `no permission rule matched; the default is ${fallback}` };
}

function matchesArguments(patterns: PermissionRule['arguments'], args: unknown): boolean {
  if (!patterns) return true;
  const record = typeof args === 'object' && args !== null ? (args as Record<string, unknown>) : {};
  return Object.entries(patterns).every(([name, pattern]) => {
    const value = record[name];
    if (value === undefined) return false;
    const text = typeof value === 'string' ? value : JSON.stringify(value);
    return pattern instanceof RegExp ? pattern.test(text) : matchesGlob(pattern, text);
  });
}

function matchesGlob(pattern: string, text: string): boolean {
  const source = pattern
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '.*')
    .replace(/\?/g, '.');
  return new RegExp(`^${source}$`, 's').test(text);
}
