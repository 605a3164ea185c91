export { assembleAgent } from './assemble-agent.js';
export { assembleWorkflow, type WorkflowAssemblyPorts } from './assemble-workflow.js';
export { AssemblyError, type AssemblyPorts } from './assembly-ports.js';
