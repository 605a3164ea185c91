export {
  bubblewrapArguments,
  defaultSystemPaths,
  type ProgramPath,
  programPaths,
  rewriteProgramPath,
} from './bubblewrap-arguments.js';
export {
  type BubblewrapAvailability,
  BubblewrapSandbox,
  type BubblewrapSandboxOptions,
  checkBubblewrap,
} from './bubblewrap-sandbox.js';
