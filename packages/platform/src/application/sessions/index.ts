export { createEmptySession, type NewSession, renameSession } from './session-service.js';
