export { buildLanguageModel, type ModelBuildInput, ModelUnavailableError } from './build-language-model.js';
export { catalogueEntrySchema, type ConnectionSettings, connectionSettingsSchema, type Provider, providers } from './connection-settings.js';
export { type DemoReply, DemoLanguageModel } from './demo-language-model.js';
