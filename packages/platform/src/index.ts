/**
 * @module @agentloom/platform
 * The AgentLoom platform core: HTTP API, database, identity, spaces, resources, apps, drafts and
 * releases, built on the SDK's public API only (P-1.11, NOT-2).
 */

export { migrateToLatest, openPlatformDatabase } from './adapters/database/index.js';
export { createUser } from './adapters/identity/index.js';
export {
  EgressDeniedError,
  type OutboundAllowEntry,
  type OutboundSettings,
  parseOutboundAllow,
} from './adapters/outbound/index.js';
export { exportOpenApiDocument } from './cli/export-openapi.js';
export { type ConfigFlags, ConfigurationProblemError, loadConfig, type PlatformConfig } from './config/index.js';
export { type VerifyWebhookOptions, verifyWebhookSignature, webhookSignatureHeader } from './domain/webhook-signature.js';
export { apiPrefix, createPlatformApp } from './http/create-app.js';
export { type CreatePlatformOptions, createLogger, createPlatform, type Platform } from './platform.js';
export { type JournalWrites, RunWorker, type RunWorkerOptions, receiveJournalWrites } from './worker/index.js';
