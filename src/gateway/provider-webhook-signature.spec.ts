import { generateKeyPairSync, KeyObject, sign } from 'node:crypto';
import { parseSignature, verifyProviderSignature } from './provider-webhook-signature';

/** A key pair as the provider hands it out: the public half as standard base64 of the DER SubjectPublicKeyInfo. */
function providerKey(modulusLength = 2048): { privateKey: KeyObject; publicKeyBase64: string } {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength });
  return { privateKey, publicKeyBase64: publicKey.export({ type: 'spki', format: 'der' }).toString('base64') };
}

/** URL-safe alphabet, `=` padding kept: what the provider's Base64.getUrlEncoder() writes. */
function urlSafePadded(bytes: Buffer): string {
  return bytes.toString('base64').replace(/\+/g, '-').replace(/\//g, '_');
}

describe('verifyProviderSignature', () => {
  const key = providerKey();
  const other = providerKey();
  const body = Buffer.from('{"eventID":7,"eventType":"PaymentCaptured","occuredAt":"2024-01-01T00:00:00Z","note":"Платёж"}', 'utf8');
  const signature = sign('sha256', body, key.privateKey);
  const header = `alg=RS256; digest=${urlSafePadded(signature)}`;

  it('accepts the provider header over the exact body with the registered key', () => {
    expect(urlSafePadded(signature)).toMatch(/=$/);
    expect(verifyProviderSignature(body, header, [key.publicKeyBase64])).toBe(true);
  });

  it('accepts when any of several registered keys signed (processing and wallet keys differ)', () => {
    expect(verifyProviderSignature(body, header, [other.publicKeyBase64, key.publicKeyBase64])).toBe(true);
  });

  it('refuses a body changed by one byte, re-serialised, or with whitespace added', () => {
    const tampered = Buffer.from(body);
    tampered[10] ^= 1;
    expect(verifyProviderSignature(tampered, header, [key.publicKeyBase64])).toBe(false);
    const reserialised = Buffer.from(JSON.stringify(JSON.parse(body.toString('utf8')), null, 1));
    expect(verifyProviderSignature(reserialised, header, [key.publicKeyBase64])).toBe(false);
    expect(verifyProviderSignature(Buffer.concat([body, Buffer.from('\n')]), header, [key.publicKeyBase64])).toBe(false);
  });

  it('refuses a signature by another key, and refuses when no key is known', () => {
    expect(verifyProviderSignature(body, header, [other.publicKeyBase64])).toBe(false);
    expect(verifyProviderSignature(body, header, [])).toBe(false);
  });

  it.each([
    ['missing', undefined],
    ['empty', ''],
    ['no digest', 'alg=RS256'],
    ['empty digest', 'alg=RS256; digest='],
    ['another algorithm', `alg=RS512; digest=${urlSafePadded(signature)}`],
    ['lower-case algorithm', `alg=rs256; digest=${urlSafePadded(signature)}`],
    ['digest only', urlSafePadded(signature)],
    ['garbage in the digest', `alg=RS256; digest=${urlSafePadded(signature).slice(0, 20)}!!${urlSafePadded(signature).slice(22)}`],
    ['padding in the middle', `alg=RS256; digest=${urlSafePadded(signature).slice(0, 20)}=${urlSafePadded(signature).slice(21)}`],
    ['a truncated digest', `alg=RS256; digest=${urlSafePadded(signature).slice(0, 100)}`],
    ['a huge header', `alg=RS256; digest=${'A'.repeat(10_000)}`],
    ['two signatures', `${header}, ${header}`],
  ])('refuses a header that is: %s, without throwing', (_name, value) => {
    expect(verifyProviderSignature(body, value, [key.publicKeyBase64])).toBe(false);
  });

  it('accepts the digest in the standard base64 alphabet, and without padding', () => {
    const standard = signature.toString('base64');
    expect(standard).toMatch(/[+/]/);
    expect(verifyProviderSignature(body, `alg=RS256; digest=${standard}`, [key.publicKeyBase64])).toBe(true);
    expect(verifyProviderSignature(body, `alg=RS256; digest=${urlSafePadded(signature).replace(/=+$/, '')}`, [key.publicKeyBase64])).toBe(true);
    expect(verifyProviderSignature(body, `alg=RS256;digest=${urlSafePadded(signature)}`, [key.publicKeyBase64])).toBe(true);
  });

  it('skips keys that are not RSA public keys in DER form, without throwing', () => {
    const pem = generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey.export({ type: 'spki', format: 'pem' }).toString();
    const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey.export({ type: 'spki', format: 'der' }).toString('base64');
    expect(verifyProviderSignature(body, header, ['not a key', pem, ec, ''])).toBe(false);
    expect(verifyProviderSignature(body, header, ['not a key', pem, ec, key.publicKeyBase64])).toBe(true);
  });

  it('treats a body that is not a Buffer as unsigned', () => {
    expect(verifyProviderSignature(body.toString('utf8') as unknown as Buffer, header, [key.publicKeyBase64])).toBe(false);
  });

  it('parses only the exact header form', () => {
    expect(parseSignature(header)?.equals(signature)).toBe(true);
    expect(parseSignature(`  ${header}  `)?.equals(signature)).toBe(true);
    expect(parseSignature('alg=RS256; digest====')).toBeUndefined();
  });
});
