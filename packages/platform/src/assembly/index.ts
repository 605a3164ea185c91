export { assembleAgent } from './assemble-agent.js';
export { AssemblyError, type AssemblyPorts } from './assembly-ports.js';
