/** Shared resources in the console: their queries, lists, forms and the version card. */
export { type HookTrigger, hookTriggers, isHookTrigger, useHookContents } from './hook-triggers.js';
export { resourceColumns } from './resource-columns.js';
export { ResourceList } from './resource-list.js';
export { type JsonObjectProblem, parseJsonObjectText, useCreateResource, useSaveVersion } from './resource-mutations.js';
export { type ResourceType, useLatestVersion, useResources } from './resource-queries.js';
export { VersionCard, type VersionFields } from './version-card.js';
