export { type KeySubject, type SubjectRows, useApiKeyWith } from './api-key-subjects.js';
export {
  type ApiKeyScope,
  createApiKey,
  type KeyCreator,
  listApiKeys,
  revokeApiKey,
  revokeKeysMadeBy,
  useApiKey,
  withCreators,
} from './api-keys.js';
export { SignInLimiter, SignInLimitsProblemError, type SignInVerdict } from './sign-in-limits.js';
export {
  createUser,
  deleteWebSessionsOf,
  EmailTakenError,
  findUser,
  findUserByEmail,
  listKeysMadeBy,
  listUsers,
  updateUser,
} from './users.js';
export { deleteWebSession, findWebSession, insertWebSession, membershipsOf, type NewWebSession } from './web-sessions.js';
