import { loadConfig } from '../config/load-config';
import { SecretBoxService } from './secret-box.service';
import { SecretUnreadableError } from './secret-unreadable.error';

const OWNER = '3f2b8c1e-4d5a-4b6c-8d7e-9f0a1b2c3d4e';

/** Alters the sealed bytes themselves: rewriting base64 characters can leave the bytes unchanged (1 run in 256). */
function flipLastByte(sealed: string): string {
  const [version, payload] = sealed.split(':');
  const bytes = Buffer.from(payload, 'base64url');
  bytes[bytes.length - 1] ^= 0x01;
  return `${version}:${bytes.toString('base64url')}`;
}

describe('SecretBoxService', () => {
  const box = (env: Record<string, string>) => new SecretBoxService(loadConfig({ LOG_LEVEL: 'silent', ...env }));

  it('opens what it sealed, and the sealed text shows nothing of the secret', () => {
    const secrets = box({ ADMIN_TOKEN: 'admin-token-0123456789' });
    const sealed = secrets.seal('whsec_c2VjcmV0', OWNER);
    expect(sealed).not.toContain('whsec_');
    expect(sealed).not.toContain('c2VjcmV0');
    expect(secrets.seal('whsec_c2VjcmV0', OWNER)).not.toBe(sealed);
    expect(secrets.open(sealed, OWNER)).toBe('whsec_c2VjcmV0');
  });

  it('derives the key from SECRETS_KEY, which defaults to ADMIN_TOKEN', () => {
    const sealed = box({ ADMIN_TOKEN: 'old-admin-token-0123456789' }).seal('s', OWNER);
    // Rotating ADMIN_TOKEN: SECRETS_KEY set to the old token keeps every stored secret readable.
    expect(box({ ADMIN_TOKEN: 'new-admin-token-0123456789', SECRETS_KEY: 'old-admin-token-0123456789' }).open(sealed, OWNER)).toBe('s');
    expect(() => box({ ADMIN_TOKEN: 'new-admin-token-0123456789' }).open(sealed, OWNER)).toThrow(SecretUnreadableError);
  });

  it('refuses a ciphertext moved to another owner or altered', () => {
    const secrets = box({ ADMIN_TOKEN: 'admin-token-0123456789' });
    const sealed = secrets.seal('s', OWNER);
    expect(() => secrets.open(sealed, '00000000-0000-4000-8000-000000000000')).toThrow(SecretUnreadableError);
    expect(() => secrets.open(flipLastByte(sealed), OWNER)).toThrow(SecretUnreadableError);
    expect(() => secrets.open('garbage', OWNER)).toThrow(SecretUnreadableError);
  });
});
