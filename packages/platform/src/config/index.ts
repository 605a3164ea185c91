export {
  type ConfigFlags,
  ConfigurationProblemError,
  type DispatcherKind,
  defaultBodyLimitBytes,
  defaultSignInLimits,
  dispatcherKind,
  loadConfig,
  type PlatformConfig,
  pgBossSchemaOf,
  type SignInLimits,
} from './load-config.js';
