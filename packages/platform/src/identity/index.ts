export { createApiKey } from './api-keys.js';
export { createUser, EmailTakenError } from './users.js';
