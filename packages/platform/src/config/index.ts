export { loadConfig } from './load-config.js';
export {
  type AgentFileLimits,
  type ConfigFlags,
  ConfigurationProblemError,
  type DispatcherKind,
  defaultAgentFileLimits,
  defaultBodyLimitBytes,
  defaultMcpConnectAttempts,
  demoModeOf,
  dispatcherKind,
  type PlatformConfig,
  pgBossSchemaOf,
} from './platform-config.js';
export { backoffAfter, defaultSignInLimits, mostAccountFailuresPerWindow, type SignInLimits } from './sign-in-limits.js';
