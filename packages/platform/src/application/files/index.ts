export {
  agentFileArea,
  agentFileLimits,
  deleteAreaPath,
  type FileAreaRead,
  fileTooLarge,
  makeAreaFolder,
  putAreaFile,
  readAreaPath,
} from './agent-files.js';
export { sessionFileArea } from './session-files.js';
