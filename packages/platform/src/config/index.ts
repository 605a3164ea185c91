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
  loadConfig,
  type PlatformConfig,
  pgBossSchemaOf,
} from './load-config.js';
export { backoffAfter, defaultSignInLimits, mostAccountFailuresPerWindow, type SignInLimits } from './sign-in-limits.js';
