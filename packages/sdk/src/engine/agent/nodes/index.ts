export { runDelegation } from './delegation.js';
export { defaultTaskSchema, ExecutorNode, type TaskInput } from './executor-node.js';
export { Node, type RunLimit, RunLimitReached, type TaskOutcome } from './node.js';
export { PlannerNode } from './planner-node.js';
export { ReactNode, settleAll } from './react-node.js';
export { RemoteExecutorNode } from './remote-executor-node.js';
