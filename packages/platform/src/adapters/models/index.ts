export {
  type ConnectionSettings,
  catalogueEntrySchema,
  connectionSettingsSchema,
  type Provider,
  providers,
} from '../../domain/connection-settings.js';
export { buildLanguageModel, type ModelBuildInput, ModelUnavailableError } from './build-language-model.js';
export { DemoLanguageModel, type DemoReply } from './demo-language-model.js';
