import {
  type CompiledCatalog,
  compileCatalog,
  createHashingEmbedder,
  type DialogueState,
  type Embedder,
  InvalidCatalogError,
  InvalidUnderstandInputError,
  type UnderstandResult,
  understand,
} from '@agentloom/intent';
import { readDraftRow } from '../../adapters/database/repositories/draft-repository.js';
import { findReleaseSnapshotText } from '../../adapters/database/repositories/release-repository.js';
import type { AppRow } from '../../adapters/database/schema.js';
import { ConflictError, ValidationError } from '../../domain/errors.js';
import { parseRouterSnapshot } from '../../domain/router-draft.js';
import { type PlannedTurn, planRouterTurn } from '../../domain/router-turn.js';
import type { PlatformContext } from '../context.js';

/**
 * The embedder of the similarity layer: `@agentloom/intent`'s deterministic offline hashing
 * embedder (no network, no model; it knows spelling, not meaning). A router's similarity
 * thresholds are set for it (its scores sit below a real embedding model's).
 */
const offlineEmbedder: Embedder = createHashingEmbedder();

/** Compiled catalogs of router releases by release id (immutable, so never stale); a few kept. */
const releaseCatalogs = new Map<string, CompiledCatalog>();
const keptCatalogs = 64;

/** Refuses anything but a router app (a conflict `not-a-router`); `hint` says what to do instead. */
export function refuseNonRouter(app: AppRow, hint: string): void {
  if (app.kind !== 'router') throw new ConflictError('not-a-router', `This app is not a router; ${hint}`, { kind: app.kind });
}

/** Refuses anything but a router app, and a router being deleted. */
export function assertRouter(app: AppRow): void {
  refuseNonRouter(app, 'send messages to a router app.');
  if (app.state !== 'active') throw new ConflictError('app-deleting', 'The app is being deleted.');
}

/** The compiled catalog of the router's newest release: a conflict `app-not-published` without one. */
export async function publishedCatalog(services: Pick<PlatformContext, 'database'>, app: AppRow): Promise<CompiledCatalog> {
  const releaseId = app.latest_release_id;
  if (!releaseId) throw new ConflictError('app-not-published', 'Publish the router before sending it messages.');
  const cached = releaseCatalogs.get(releaseId);
  if (cached) return cached;
  const text = await findReleaseSnapshotText(services.database, releaseId);
  if (!text) throw new ConflictError('app-not-published', 'Publish the router before sending it messages.');
  const compiled = compileCatalog(parseRouterSnapshot(text).catalog);
  if (releaseCatalogs.size >= keptCatalogs) releaseCatalogs.delete(releaseCatalogs.keys().next().value as string);
  releaseCatalogs.set(releaseId, compiled);
  return compiled;
}

/**
 * Runs `understand` over one utterance with the platform's ports (the offline embedder, no
 * model). A state the catalog no longer fits (a newer release dropped its action) is forgotten
 * and the utterance understood afresh.
 */
export async function understandUtterance(
  catalog: CompiledCatalog,
  utterance: string,
  state: DialogueState,
): Promise<{ result: UnderstandResult; state: DialogueState }> {
  const ports = { embedder: offlineEmbedder };
  try {
    return { result: await understand({ utterance, state, catalog, ports }), state };
  } catch (error) {
    if (!(error instanceof InvalidUnderstandInputError) || Object.keys(state).length === 0) throw error;
    return { result: await understand({ utterance, state: {}, catalog, ports }), state: {} };
  }
}

/** A dry run of one utterance against the router's saved draft: the commands, the trace and what the router would do. */
export interface RouterTrial {
  result: UnderstandResult;
  plan: PlannedTurn;
}

/**
 * "Try it" (issue 33): understands an utterance with the saved draft's catalog and a dialogue
 * state the caller passes, and plans the turn — without starting, stopping or supplementing
 * anything and without keeping any state. A draft whose catalog does not compile is a validation
 * error `draft-invalid` with its issues; a state that names what the catalog lacks, `invalid-state`.
 */
export async function tryRouterDraft(
  services: Pick<PlatformContext, 'database'>,
  app: AppRow,
  utterance: string,
  state: DialogueState,
): Promise<RouterTrial> {
  refuseNonRouter(app, 'only a router has a catalog to try.');
  const draft = JSON.parse((await readDraftRow(services.database, app.id)).config) as unknown;
  let catalog: CompiledCatalog;
  try {
    catalog = compileCatalog(draft);
  } catch (error) {
    if (!(error instanceof InvalidCatalogError)) throw error;
    throw new ValidationError('draft-invalid', 'The draft catalog cannot be used; fix every issue listed.', {
      issues: error.problems.map((problem) => ({ path: problem.path, code: 'invalid-catalog', message: problem.message })),
    });
  }
  let result: UnderstandResult;
  try {
    result = await understand({ utterance, state, catalog, ports: { embedder: offlineEmbedder } });
  } catch (error) {
    if (!(error instanceof InvalidUnderstandInputError)) throw error;
    throw new ValidationError('invalid-state', 'The dialogue state does not fit the draft catalog.', {
      issues: error.problems,
    });
  }
  return { result, plan: planRouterTurn({ dialogue: state }, result.commands, utterance, catalog) };
}
