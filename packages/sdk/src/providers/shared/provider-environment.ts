import { type ConfigurationIssue, InvalidConfigurationError } from '../../core/errors/index.js';

/** Environment variables as `process.env` holds them; injectable so that tests never touch the real ones. */
export type EnvironmentVariables = Readonly<Record<string, string | undefined>>;

/** Which adapter a connection read from the environment is meant for. */
export type EnvironmentProvider = 'openai-compatible' | 'anthropic';

/** A model connection read from the environment: everything an adapter needs to be created. */
export interface EnvironmentConnection {
  provider: EnvironmentProvider;
  apiKey: string;
  /** Absent when the provider's official endpoint is meant. */
  baseURL?: string;
  modelId: string;
}

/**
 * The model used when `AGENTLOOM_MODEL` is not set and the official OpenAI endpoint is meant. An
 * OpenAI-compatible endpoint (a base URL) has no sensible default, so there the model is required.
 */
export const defaultOpenAIModelId = 'gpt-5.4-mini';

/** The model used when `AGENTLOOM_MODEL` is not set for Anthropic. */
export const defaultAnthropicModelId = 'claude-sonnet-4-6';

const subject = 'model environment';

/**
 * Reads the OpenAI-compatible connection from `AGENTLOOM_OPENAI_API_KEY`,
 * `AGENTLOOM_OPENAI_BASE_URL` and `AGENTLOOM_MODEL`. Returns `undefined` when no key is set, so
 * that callers can fall back to a `ScriptedModel`; throws `InvalidConfigurationError` when the
 * variables that are set contradict each other (a base URL that is not a URL, an
 * OpenAI-compatible endpoint without a model), before anything is sent anywhere.
 */
export function readOpenAIEnvironment(environment: EnvironmentVariables = process.env): EnvironmentConnection | undefined {
  const apiKey = readVariable(environment, 'AGENTLOOM_OPENAI_API_KEY');
  if (apiKey === undefined) return undefined;
  const baseURL = readVariable(environment, 'AGENTLOOM_OPENAI_BASE_URL');
  const modelId = readVariable(environment, 'AGENTLOOM_MODEL');
  const issues: ConfigurationIssue[] = [];
  checkBaseURL(baseURL, 'AGENTLOOM_OPENAI_BASE_URL', issues);
  if (baseURL !== undefined && modelId === undefined) {
    issues.push({ path: 'AGENTLOOM_MODEL', message: 'name the model to use at AGENTLOOM_OPENAI_BASE_URL' });
  }
  if (issues.length > 0) throw new InvalidConfigurationError(subject, issues);
  return { provider: 'openai-compatible', apiKey, modelId: modelId ?? defaultOpenAIModelId, ...(baseURL ? { baseURL } : {}) };
}

/**
 * Reads the Anthropic connection from `AGENTLOOM_ANTHROPIC_API_KEY`,
 * `AGENTLOOM_ANTHROPIC_BASE_URL` and `AGENTLOOM_MODEL`. Returns `undefined` when no key is set.
 */
export function readAnthropicEnvironment(environment: EnvironmentVariables = process.env): EnvironmentConnection | undefined {
  const apiKey = readVariable(environment, 'AGENTLOOM_ANTHROPIC_API_KEY');
  if (apiKey === undefined) return undefined;
  const baseURL = readVariable(environment, 'AGENTLOOM_ANTHROPIC_BASE_URL');
  const issues: ConfigurationIssue[] = [];
  checkBaseURL(baseURL, 'AGENTLOOM_ANTHROPIC_BASE_URL', issues);
  if (issues.length > 0) throw new InvalidConfigurationError(subject, issues);
  const modelId = readVariable(environment, 'AGENTLOOM_MODEL') ?? defaultAnthropicModelId;
  return { provider: 'anthropic', apiKey, modelId, ...(baseURL ? { baseURL } : {}) };
}

/**
 * Reads whichever model connection the environment configures. When keys for both providers are
 * set, `AGENTLOOM_PROVIDER` (`openai` or `anthropic`) chooses; without it OpenAI-compatible wins,
 * because `AGENTLOOM_MODEL` is shared and usually names a model of the first provider set up.
 * Returns `undefined` when no key is set at all.
 */
export function readProviderEnvironment(environment: EnvironmentVariables = process.env): EnvironmentConnection | undefined {
  const chosen = readVariable(environment, 'AGENTLOOM_PROVIDER');
  if (chosen === undefined) return readOpenAIEnvironment(environment) ?? readAnthropicEnvironment(environment);
  if (chosen === 'openai' || chosen === 'openai-compatible') {
    return readOpenAIEnvironment(environment) ?? missingKey('AGENTLOOM_OPENAI_API_KEY');
  }
  if (chosen === 'anthropic') return readAnthropicEnvironment(environment) ?? missingKey('AGENTLOOM_ANTHROPIC_API_KEY');
  throw new InvalidConfigurationError(subject, [
    { path: 'AGENTLOOM_PROVIDER', message: `expected "openai" or "anthropic", got "${chosen}"` },
  ]);
}

function missingKey(variable: string): never {
  throw new InvalidConfigurationError(subject, [
    { path: variable, message: 'AGENTLOOM_PROVIDER chooses this provider, so set its key' },
  ]);
}

/** An unset and an empty variable mean the same: shells and `.env` files often leave `NAME=`. */
function readVariable(environment: EnvironmentVariables, name: string): string | undefined {
  const value = environment[name]?.trim();
  return value === undefined || value === '' ? undefined : value;
}

function checkBaseURL(baseURL: string | undefined, variable: string, issues: ConfigurationIssue[]): void {
  if (baseURL === undefined) return;
  if (!URL.canParse(baseURL) || !/^https?:$/.test(new URL(baseURL).protocol)) {
    issues.push({ path: variable, message: `expected an http(s) URL, got "${baseURL}"` });
  }
}
