export { hashPassword, unusablePasswordHash, verifyPassword } from './password.js';
export { maskSecret, SecretBox, SecretDecryptionError } from './secret-box.js';
export { hashToken, keyedDigest, newId, randomToken, sameSecret } from './tokens.js';
