import type { LanguageModel, ModelSettings } from '@agentloom/sdk';
import { buildLanguageModel } from '../adapters/models/index.js';
import type { AgentReleaseSnapshot } from '../domain/release-snapshot.js';

/** The model settings a release pins (thinking, output limit), as the SDK takes them; empty when none. */
export function releaseModelSettings(snapshot: AgentReleaseSnapshot): ModelSettings {
  return {
    ...(snapshot.model.thinking ? { thinking: snapshot.model.thinking } : {}),
    ...(snapshot.model.maxOutputTokens ? { maxOutputTokens: snapshot.model.maxOutputTokens } : {}),
  };
}

/**
 * The language model of an agent release: its connection's provider, address and settings, the
 * pinned model id, the connection's active key (resolved at build, D-P3) and the outbound module's
 * `fetch` (P-15.1), so that every model request of the release goes through the egress policy.
 */
export function releaseLanguageModel(
  snapshot: AgentReleaseSnapshot,
  apiKey: string | undefined,
  outboundFetch: typeof globalThis.fetch,
  modelSettings?: ModelSettings,
): LanguageModel {
  return buildLanguageModel({
    provider: snapshot.model.provider,
    baseUrl: snapshot.model.baseUrl,
    settings: snapshot.model.settings,
    modelId: snapshot.model.modelId,
    apiKey,
    ...(modelSettings && Object.keys(modelSettings).length > 0 ? { modelSettings } : {}),
    fetch: outboundFetch,
  });
}

/**
 * The models of a release's fallback chain (N-15), by the names the definition gives them
 * (`release-fallback-1` …), each with its own connection's active key resolved now (D-P3) and the
 * outbound module's `fetch`. A connection without a usable key is an assembly issue.
 */
export async function releaseFallbackModels(
  snapshot: AgentReleaseSnapshot,
  readActiveKey: (connectionId: string) => Promise<string | undefined>,
  outboundFetch: typeof globalThis.fetch,
  issues: { path: string; message: string }[],
): Promise<Record<string, LanguageModel>> {
  const models: Record<string, LanguageModel> = {};
  for (const [index, fallback] of (snapshot.model.fallbacks ?? []).entries()) {
    const apiKey = await readActiveKey(fallback.connectionId);
    if (!apiKey && fallback.provider !== 'offline-demo') {
      issues.push({ path: `model.fallbacks.${index}.connectionId`, message: 'The model connection has no active key.' });
      continue;
    }
    models[`release-fallback-${index + 1}`] = buildLanguageModel({
      provider: fallback.provider,
      baseUrl: fallback.baseUrl,
      settings: fallback.settings,
      modelId: fallback.modelId,
      apiKey,
      fetch: outboundFetch,
    });
  }
  return models;
}
