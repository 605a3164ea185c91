/**
 * @module @agentloom/platform
 * The AgentLoom platform core: HTTP API, database, identity, spaces, resources, apps, drafts and
 * releases, built on the SDK's public API only (P-1.11, NOT-2).
 */
export {
  EgressDeniedError,
  type OutboundAllowEntry,
  type OutboundSettings,
  parseOutboundAllow,
} from './adapters/outbound/index.js';
export { type ConfigFlags, ConfigurationProblemError, loadConfig, type PlatformConfig } from './config/index.js';
export { migrateToLatest, openPlatformDatabase } from './database/index.js';
export { apiPrefix, createPlatformApp } from './http/create-app.js';
export { createUser } from './identity/index.js';
export { type CreatePlatformOptions, createLogger, createPlatform, type Platform } from './platform.js';
export { RunWorker, type RunWorkerOptions } from './runs/index.js';
export { type VerifyWebhookOptions, verifyWebhookSignature, webhookSignatureHeader } from './webhooks/index.js';
