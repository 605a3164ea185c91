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
