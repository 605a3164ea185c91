export {
  bubblewrapArguments,
  defaultSystemPaths,
  defaultTemporaryBytes,
  type ProgramPath,
  programPaths,
  rewriteProgramPath,
} from './bubblewrap-arguments.js';
export {
  type BubblewrapAvailability,
  BubblewrapSandbox,
  type BubblewrapSandboxOptions,
  checkBubblewrap,
  defaultMaxProcesses,
} from './bubblewrap-sandbox.js';
export { defaultSandboxUser } from './host-user.js';
export { buildSeccompFilter } from './seccomp-filter.js';
