export {
  type ConfigFlags,
  ConfigurationProblemError,
  type DispatcherKind,
  defaultBodyLimitBytes,
  defaultMcpConnectAttempts,
  demoModeOf,
  dispatcherKind,
  loadConfig,
  type PlatformConfig,
  pgBossSchemaOf,
} from './load-config.js';
export { backoffAfter, defaultSignInLimits, mostAccountFailuresPerWindow, type SignInLimits } from './sign-in-limits.js';
