import type { ModelServer } from '../model/language-model.js';

/** A role of an agent as its spans describe it. */
export interface RoleTelemetryProfile {
  /** `gen_ai.agent.description` of the role's `invoke_agent` spans, when the application gave one. */
  description?: string;
  /** The description of each of the role's tools, by tool name (`gen_ai.tool.description`). */
  tools: Readonly<Record<string, string>>;
}

/**
 * What an agent's spans say that its run events do not (N-3): the model's provider, model id and
 * endpoint, the output limit its requests ask for, and the descriptions of the agent, its
 * executor roles and their tools. An `Agent` builds it once from its configuration
 * (`agent.telemetryProfile`); the events carry everything else.
 */
export interface AgentTelemetryProfile {
  /** `gen_ai.provider.name` (`LanguageModel.provider`). */
  provider: string;
  /** `gen_ai.request.model` (`LanguageModel.modelId`). */
  modelId: string;
  /** `server.address` / `server.port` of the model's endpoint, when it is served over the network. */
  server?: ModelServer;
  /** `gen_ai.request.max_tokens`, when the agent's model settings set an output limit. */
  maxOutputTokens?: number;
  /** The entry role (the ReAct role or the planner); its description is the agent's. */
  entry: RoleTelemetryProfile;
  /** The executor roles by name (Plan–Executor). */
  executors: Readonly<Record<string, RoleTelemetryProfile>>;
}
