export {
  type ApiKeyScope,
  createApiKey,
  type KeyCreator,
  listApiKeys,
  revokeApiKey,
  revokeKeysMadeBy,
  withCreators,
} from './api-keys.js';
export { SignInLimiter, SignInLimitsProblemError, type SignInVerdict } from './sign-in-limits.js';
export { createUser, EmailTakenError } from './users.js';
