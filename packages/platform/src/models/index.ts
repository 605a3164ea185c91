export { buildLanguageModel, type ModelBuildInput, ModelUnavailableError } from './build-language-model.js';
export {
  type ConnectionSettings,
  catalogueEntrySchema,
  connectionSettingsSchema,
  type Provider,
  providers,
} from './connection-settings.js';
export { DemoLanguageModel, type DemoReply } from './demo-language-model.js';
