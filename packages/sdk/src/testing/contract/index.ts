/**
 * `@agentloom/sdk/testing/contract`: the `RunStore` contract suite. Kept apart from
 * `@agentloom/sdk/testing` because it needs Vitest at load time, and an application that only
 * wants the `ScriptedModel` must not need Vitest (issue 18).
 */
export { type RunStoreContractOptions, runStoreContract } from '../run-store-contract.js';
