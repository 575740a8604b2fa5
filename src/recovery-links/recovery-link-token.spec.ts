import { randomUUID } from 'node:crypto';
import { recoveryLinkKey, RecoveryLinkToken } from './recovery-link-token';
import { formatMoney, pageLanguage } from './recovery-page-texts';

describe('RecoveryLinkToken', () => {
  const tokens = new RecoveryLinkToken(recoveryLinkKey('an-admin-token-of-some-length'));
  const id = randomUUID();

  it('signs a link id and verifies it back', () => {
    const token = tokens.sign(id);
    expect(token).toMatch(/^[0-9a-f-]{36}\.[A-Za-z0-9_-]{43}$/);
    expect(tokens.verify(token)).toBe(id);
  });

  it('refuses a token whose MAC or id was altered', () => {
    const token = tokens.sign(id);
    const mac = token.slice(37);
    const flipped = `${mac[0] === 'A' ? 'B' : 'A'}${mac.slice(1)}`;
    expect(tokens.verify(`${id}.${flipped}`)).toBeNull();
    // The last character's spare bits: another spelling of the same bytes is refused too.
    const last = mac[42] === 'A' ? 'B' : 'A';
    expect(tokens.verify(`${id}.${mac.slice(0, 42)}${last}`)).toBeNull();
    expect(tokens.verify(`${randomUUID()}.${mac}`)).toBeNull();
    expect(tokens.verify(`${id}.${mac}x`)).toBeNull();
    expect(tokens.verify(`${id}${mac}`)).toBeNull();
    expect(tokens.verify('')).toBeNull();
    expect(tokens.verify(`${id.toUpperCase()}.${mac}`)).toBeNull();
  });

  it('refuses a token signed with another key (ADMIN_TOKEN or SECRETS_KEY rotated)', () => {
    const other = new RecoveryLinkToken(recoveryLinkKey('another-admin-token-entirely'));
    expect(other.verify(tokens.sign(id))).toBeNull();
  });
});

describe('the recovery page language and money', () => {
  it('speaks Russian only when the browser prefers it', () => {
    expect(pageLanguage('ru-RU,ru;q=0.9,en;q=0.8')).toBe('ru');
    expect(pageLanguage('en-US,en;q=0.9,ru;q=0.8')).toBe('en');
    expect(pageLanguage('de-DE,ru;q=0.5')).toBe('ru');
    expect(pageLanguage('en;q=0.4,ru;q=0.6')).toBe('ru');
    expect(pageLanguage(undefined)).toBe('en');
    expect(pageLanguage('fr')).toBe('en');
  });

  it('formats minor units for the language and currency', () => {
    expect(formatMoney(150_000, 'RUB', 'ru')).toBe('1\u00a0500,00\u00a0₽');
    expect(formatMoney(2_599, 'USD', 'en')).toBe('$25.99');
  });
});
