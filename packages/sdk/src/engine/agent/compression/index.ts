export { COMPRESSION_SYSTEM_PROMPT, CompressionFailedError, ensureContextFits, OverWindowError } from './compress-context.js';
export { estimateTokens } from './estimate-tokens.js';
export { ensureHistoryCheckpoint, HISTORY_CHECKPOINT_SHARE } from './session-checkpoint.js';
export { compressionCut, summaryMessage, visibleContext } from './visible-context.js';
