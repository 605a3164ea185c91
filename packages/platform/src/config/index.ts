export {
  type ConfigFlags,
  ConfigurationProblemError,
  defaultBodyLimitBytes,
  loadConfig,
  type PlatformConfig,
} from './load-config.js';
