import { type CompiledCatalog, compileCatalog, type IntentCatalog, InvalidCatalogError } from '@agentloom/intent';
import { z } from '@hono/zod-openapi';
import type { DraftIssue } from './validate-agent-draft.js';

/** The router draft format: the `@agentloom/intent` catalog format version it holds. */
export const routerDraftSchemaVersion = 1;

/**
 * A router app's draft (issue 33): an `@agentloom/intent` `IntentCatalog` whose action references
 * name apps of the same space (`{ kind: 'agent' | 'workflow', id: <appId> }`). Saving checks the
 * envelope only (format version 1 and a list of actions), so that the console can save a catalog
 * with no action yet or a rule it is still writing; `POST /draft/validate` lists every problem
 * and a publish refuses them.
 */
export const routerDraftSchema = z
  .looseObject({
    formatVersion: z.literal(1),
    actions: z.array(z.record(z.string(), z.unknown())).max(200),
  })
  .openapi('RouterDraft', {
    description:
      'An IntentCatalog of `@agentloom/intent` (`@agentloom/intent/schemas/intent-catalog.schema.json`); each action `ref` is `{ kind: "agent" | "workflow", id: <appId of this space> }`.',
  });

/** The draft of a new router: a catalog with no action yet (not publishable until it has one). */
export function emptyRouterDraft(): Record<string, unknown> {
  return { formatVersion: 1, actions: [] };
}

/** What router validation needs to know about the apps its actions name, read before it runs. */
export interface RouterDraftLookups {
  apps: ReadonlyMap<
    string,
    {
      kind: 'agent' | 'workflow' | 'router';
      state: 'active' | 'deleting';
      latestReleaseId: string | null;
      latestVersion: number | null;
    }
  >;
}

/** The app ids the actions of a draft name (whatever their kind), for the lookups. */
export function routerReferences(draft: Record<string, unknown>): string[] {
  const actions = Array.isArray(draft.actions) ? (draft.actions as unknown[]) : [];
  const ids = actions.flatMap((action) => {
    const ref = (action as { ref?: { id?: unknown } } | null)?.ref;
    return typeof ref?.id === 'string' ? [ref.id] : [];
  });
  return [...new Set(ids)];
}

/** A draft checked: every issue, or the compiled catalog when there is none. */
export type RouterDraftCheck = { issues: DraftIssue[]; compiled?: undefined } | { issues: []; compiled: CompiledCatalog };

/**
 * Every problem that stops a router's publish, at once: the catalog's own (its JSON Schema and
 * what `compileCatalog` checks beyond it, code `invalid-catalog`, paths as the intent package
 * gives them), then each action reference — only `agent` and `workflow` actions can be routed by
 * the platform (`unsupported-kind`), and the app must exist in this space (`not-found`), be of
 * the kind the reference says (`kind-mismatch`), not be being deleted (`app-deleting`) and have
 * a release (`unpublished`).
 */
export function checkRouterDraft(draft: Record<string, unknown>, lookups: RouterDraftLookups): RouterDraftCheck {
  const issues: DraftIssue[] = [];
  let compiled: CompiledCatalog | undefined;
  try {
    compiled = compileCatalog(draft);
  } catch (error) {
    if (!(error instanceof InvalidCatalogError)) throw error;
    for (const problem of error.problems) issues.push({ path: problem.path, code: 'invalid-catalog', message: problem.message });
  }
  const actions = Array.isArray(draft.actions) ? (draft.actions as { ref?: { kind?: unknown; id?: unknown } }[]) : [];
  for (const [index, action] of actions.entries()) {
    const ref = action?.ref;
    if (typeof ref?.id !== 'string' || typeof ref.kind !== 'string') continue; // the schema issue is listed above
    const path = `actions.${index}.ref`;
    if (ref.kind !== 'agent' && ref.kind !== 'workflow') {
      issues.push({
        path: `${path}.kind`,
        code: 'unsupported-kind',
        message: `The platform routes to agent and workflow apps; "${ref.kind}" actions are for hosts that run them.`,
      });
      continue;
    }
    const app = lookups.apps.get(ref.id);
    if (!app) issues.push({ path: `${path}.id`, code: 'not-found', message: 'No such app in this space.' });
    else if (app.kind !== ref.kind)
      issues.push({ path: `${path}.kind`, code: 'kind-mismatch', message: `The app is a ${app.kind} app, not a ${ref.kind}.` });
    else if (app.state !== 'active')
      issues.push({ path: `${path}.id`, code: 'app-deleting', message: 'The app is being deleted.' });
    else if (app.latestReleaseId === null)
      issues.push({ path: `${path}.id`, code: 'unpublished', message: 'The app has no release; publish it first.' });
  }
  if (issues.length > 0 || !compiled) return { issues };
  return { issues: [], compiled };
}

/** An app a router release routes to, with the release it had when the router was published (for the record). */
export interface RouterTarget {
  kind: 'agent' | 'workflow';
  releaseVersion: number;
}

/**
 * The immutable configuration of a router release: the catalog as published and the apps its
 * actions name. A routed run starts on the target app's newest release (as any run without a
 * pin does, D-P5): the router decides *which* app runs, the app's own releases decide *how*.
 */
export interface RouterReleaseSnapshot {
  schemaVersion: 1;
  kind: 'router';
  name: string;
  description: string;
  catalog: IntentCatalog;
  targets: Readonly<Record<string, RouterTarget>>;
  /** A router has no runs of its own: publishing it interrupts nothing. */
  interruptsRunsInProgress: false;
}

const routerReleaseSnapshotSchema = z.looseObject({
  schemaVersion: z.literal(1),
  kind: z.literal('router'),
  name: z.string(),
  description: z.string(),
  catalog: z.record(z.string(), z.unknown()),
  targets: z.record(z.string(), z.looseObject({ kind: z.enum(['agent', 'workflow']), releaseVersion: z.number().int() })),
  interruptsRunsInProgress: z.literal(false),
});

/** Reads a stored router release snapshot; throws when the row is not one. */
export function parseRouterSnapshot(text: string): RouterReleaseSnapshot {
  return routerReleaseSnapshotSchema.parse(JSON.parse(text)) as unknown as RouterReleaseSnapshot;
}
