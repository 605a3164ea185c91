export { ProcessSandbox, rewriteVirtualPaths } from './process-sandbox.js';
