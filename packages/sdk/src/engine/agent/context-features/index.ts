export {
  assembleRequest,
  type ContextFeatures,
  type ContextReport,
  type ContextSections,
  prefixHash,
} from './assemble-request.js';
export { type CompiledEntry, compileEntries, DEFAULT_SCAN_MESSAGES, selectEntries } from './context-entries.js';
export {
  type ContextEntry,
  contextEntrySchema,
  type MessageShaping,
  messageShapingSchema,
  type ShapingMode,
  shapingModeSchema,
  type UserCommand,
  userCommandSchema,
} from './context-feature-options.js';
export { mergeAdjacentMessages, shapingModeFor } from './message-shaping.js';
export { expandUserCommand } from './user-commands.js';
