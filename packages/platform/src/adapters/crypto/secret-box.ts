import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/** Thrown when a stored ciphertext cannot be opened (wrong instance key or tampered data). */
export class SecretDecryptionError extends Error {
  readonly code = 'secret-undecryptable';
  constructor() {
    super('A stored secret could not be decrypted: the instance secret key differs from the one it was written with.');
    this.name = 'SecretDecryptionError';
  }
}

/**
 * Encrypts credentials at rest with AES-GCM with a 256-bit key under the instance key (`AGENTLOOM_SECRET_KEY`).
 * Each value gets a random 96-bit nonce; the format `v1.<nonce>.<tag>.<ciphertext>` (base64url)
 * leaves room for a key rotation later.
 */
export class SecretBox {
  private readonly key: Buffer;

  /** `secretKey` is any high-entropy string; it is stretched to 256 bits with SHA-256. */
  constructor(secretKey: string) {
    this.key = createHash('sha256').update(secretKey, 'utf8').digest();
  }

  seal(plaintext: string): string {
    const nonce = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, nonce);
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return ['v1', nonce.toString('base64url'), cipher.getAuthTag().toString('base64url'), ciphertext.toString('base64url')].join(
      '.',
    );
  }

  open(sealed: string): string {
    const [version, nonce, tag, ciphertext] = sealed.split('.');
    if (version !== 'v1' || !nonce || !tag || ciphertext === undefined) throw new SecretDecryptionError();
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(nonce, 'base64url'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
    } catch {
      throw new SecretDecryptionError();
    }
  }
}

/** What a read returns instead of a credential (NOT-30): a few characters at each end at most. */
export function maskSecret(value: string): string {
  if (value.length < 12) return '****';
  return `${value.slice(0, 3)}…${value.slice(-4)}`;
}
