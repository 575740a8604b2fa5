import { Injectable } from '@nestjs/common';
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { AppConfig } from '../config/app-config';
import { SecretUnreadableError } from './secret-unreadable.error';

const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;
/** Fixed HKDF context: a key derived for these secrets is good for nothing else. */
const HKDF_INFO = 'recurring-billing-daemon/stored-secrets/v1';

/**
 * Encrypts secrets the daemon must keep but never store in clear (AES-256-GCM, a fresh IV each time, the owner's
 * id as associated data so a ciphertext cannot be moved to another row). The key is derived with HKDF-SHA256 from
 * SECRETS_KEY, which defaults to ADMIN_TOKEN (in development, the generated one kept in DATA_DIR).
 */
@Injectable()
export class SecretBoxService {
  private key: Buffer | undefined;

  constructor(private readonly config: AppConfig) {}

  seal(plaintext: string, ownerId: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.keyBytes(), iv);
    cipher.setAAD(Buffer.from(ownerId));
    const sealed = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return `${VERSION}:${Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64url')}`;
  }

  /** Throws SecretUnreadableError when the key is not the one the secret was sealed with. */
  open(sealed: string, ownerId: string): string {
    const [version, payload] = sealed.split(':');
    if (version !== VERSION || !payload) throw new SecretUnreadableError();
    const bytes = Buffer.from(payload, 'base64url');
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.keyBytes(), bytes.subarray(0, IV_BYTES));
      decipher.setAAD(Buffer.from(ownerId));
      decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
      return Buffer.concat([decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
    } catch {
      throw new SecretUnreadableError();
    }
  }

  private keyBytes(): Buffer {
    this.key ??= Buffer.from(hkdfSync('sha256', this.config.secretsKey ?? this.config.adminToken, Buffer.alloc(0), HKDF_INFO, 32));
    return this.key;
  }
}
