export { type FactStore, InProcessFactStore, type MemoryFact, type MemoryScope, matchesQuery } from './fact-store.js';
export { createMemoryTools, type MemoryOptions, MemoryScopeMissingError } from './memory-tools.js';
