import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { createPrivateKey, generateKeyPair, KeyObject, sign } from 'node:crypto';
import { SandboxStateService } from '../state/sandbox-state.service';
import type { WebhookKeyPair, WebhookState } from '../state/webhook-state';

const RSA_BITS = 2048;
/** Pairs remembered across resets; beyond this many owners new pairs are simply made. */
const MAX_REMEMBERED_PAIRS = 1000;

/**
 * The RSA keys that sign webhook deliveries, made on first use and kept with the state (a restarted sandbox keeps
 * them). Processing webhooks share one pair for the party, wallet webhooks one pair per identity, as the provider
 * does. Pairs are made off the event loop (a 2048-bit pair takes long enough to stall every other answer), and one
 * spare is kept ready for the next owner. A reset forgets registrations, not keys: the party (and identity "1") after
 * a reset get the pair they had, which no receiver can tell from a new one and which spares tests the wait.
 * The private halves never leave this service, nor reach a log or an answer.
 */
@Injectable()
export class WebhookKeysService implements OnApplicationBootstrap {
  /** Parsed private keys, so that signing does not parse PEM on every delivery. */
  private readonly parsed = new WeakMap<WebhookKeyPair, KeyObject>();
  private spare: Promise<WebhookKeyPair> | undefined;
  private readonly remembered = new Map<string, WebhookKeyPair>();

  constructor(private readonly store: SandboxStateService) {}

  /** Starts making the first pair in the background, so that the first registration does not wait for it. */
  onApplicationBootstrap(): void {
    if (!this.store.state.webhooks.partyKey) this.refillSpare();
  }

  /** The party's public key (standard base64 DER SubjectPublicKeyInfo), made on first use. */
  async partyPublicKey(webhooks: WebhookState): Promise<string> {
    if (!webhooks.partyKey) {
      const pair = await this.pairFor('party');
      // Two first registrations may race: the first pair stored wins, the other is never used.
      webhooks.partyKey ??= pair;
    }
    return webhooks.partyKey.publicKey;
  }

  /** The identity's public key, made on first use. */
  async identityPublicKey(webhooks: WebhookState, identityID: string): Promise<string> {
    if (!webhooks.identityKeys.has(identityID)) {
      const pair = await this.pairFor(`identity:${identityID}`);
      if (!webhooks.identityKeys.has(identityID)) webhooks.identityKeys.set(identityID, pair);
    }
    return (webhooks.identityKeys.get(identityID) as WebhookKeyPair).publicKey;
  }

  /**
   * The Content-Signature header for `body` signed by the party's key (processing) or the identity's key (wallet):
   * RSASSA-PKCS1-v1_5 / SHA-256 over the exact UTF-8 bytes, URL-safe base64 with `=` padding. Undefined when the
   * key does not exist (the state was reset meanwhile).
   */
  contentSignature(body: string, identityID?: string): string | undefined {
    const webhooks = this.store.state.webhooks;
    const pair = identityID === undefined ? webhooks.partyKey : webhooks.identityKeys.get(identityID);
    if (!pair) return undefined;
    let key = this.parsed.get(pair);
    if (!key) {
      key = createPrivateKey(pair.privateKey);
      this.parsed.set(pair, key);
    }
    const digest = sign('sha256', Buffer.from(body, 'utf8'), key).toString('base64').replace(/\+/g, '-').replace(/\//g, '_');
    return `alg=RS256; digest=${digest}`;
  }

  private async pairFor(owner: string): Promise<WebhookKeyPair> {
    const known = this.remembered.get(owner);
    if (known) return known;
    const pair = await this.newPair();
    if (this.remembered.size < MAX_REMEMBERED_PAIRS && !this.remembered.has(owner)) this.remembered.set(owner, pair);
    return this.remembered.get(owner) ?? pair;
  }

  private newPair(): Promise<WebhookKeyPair> {
    const next = this.spare ?? generatePair();
    this.refillSpare();
    return next;
  }

  private refillSpare(): void {
    this.spare = generatePair();
    // A failed spare surfaces when it is used; until then it must not count as an unhandled rejection.
    this.spare.catch(() => undefined);
  }
}

function generatePair(): Promise<WebhookKeyPair> {
  return new Promise((resolve, reject) => {
    generateKeyPair(
      'rsa',
      { modulusLength: RSA_BITS, publicKeyEncoding: { type: 'spki', format: 'der' }, privateKeyEncoding: { type: 'pkcs8', format: 'pem' } },
      (error, publicKey, privateKey) => (error ? reject(error) : resolve({ publicKey: publicKey.toString('base64'), privateKey })),
    );
  });
}
