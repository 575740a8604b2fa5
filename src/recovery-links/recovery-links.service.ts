import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { SystemClock } from '../common/clock/system-clock';
import { AppConfig } from '../config/app-config';
import { RuntimeSettings } from '../config/runtime-settings';
import type { RecoveryLink } from './recovery-link.entity';
import { recoveryLinkKey, RecoveryLinkToken } from './recovery-link-token';
import { RecoveryLinksRepository } from './recovery-links.repository';

/** A link as its minter hands it out: the token is in the URL and nowhere else. */
export interface MintedRecoveryLink {
  url: string;
  expiresAt: string;
}

/** What a token leads to: nothing (404), or a link that is live, expired or revoked by a fresher one. */
export type ResolvedRecoveryLink = { state: 'live' | 'expired' | 'revoked'; link: RecoveryLink } | null;

export const RECOVERY_PAGE_PATH = '/pay';

/**
 * Recovery links: minted for one charge and its customer, signed with a key derived from SECRETS_KEY (ADMIN_TOKEN when
 * unset), living RECOVERY_LINK_TTL in real time. Minting revokes the charge's earlier links. Links are off with a real
 * provider and no PROVIDER_CHECKOUT_URL: there is no card form to send the customer to.
 */
@Injectable()
export class RecoveryLinksService {
  private readonly tokens: RecoveryLinkToken;

  constructor(
    private readonly links: RecoveryLinksRepository,
    private readonly config: AppConfig,
    private readonly runtime: RuntimeSettings,
    private readonly clock: SystemClock,
  ) {
    this.tokens = new RecoveryLinkToken(recoveryLinkKey(config.secretsKey ?? config.adminToken));
  }

  /** Whether links can be minted: the built-in sandbox has its hosted form; a real provider needs PROVIDER_CHECKOUT_URL. */
  get enabled(): boolean {
    return this.config.usesSandbox || this.config.providerCheckoutUrl !== undefined;
  }

  /** Mints a link in the caller's transaction (revoking the charge's earlier ones); null when links are off. */
  async mintIn(em: EntityManager, charge: { chargeId: string; customerId: string }): Promise<MintedRecoveryLink | null> {
    if (!this.enabled) return null;
    const now = this.clock.now();
    const id = randomUUID();
    const expiresAt = new Date(now.getTime() + this.config.recoveryLinkTtlMs);
    await this.links.replace(em, { id, chargeId: charge.chargeId, customerId: charge.customerId, expiresAt }, now);
    return { url: `${this.baseUrl()}${RECOVERY_PAGE_PATH}/${this.tokens.sign(id)}`, expiresAt: expiresAt.toISOString() };
  }

  /** Mints a link in a transaction of its own. */
  mint(charge: { chargeId: string; customerId: string }): Promise<MintedRecoveryLink | null> {
    return this.links.transaction((em) => this.mintIn(em, charge));
  }

  /** The customer's charges that a live link asks them to pay (for a new card to retry them). */
  chargesWithLiveLinks(customerId: string): Promise<string[]> {
    return this.links.chargesWithLiveLinks(customerId, this.clock.now());
  }

  /** The link a token names: its MAC is checked first, so a forged or altered token reads nothing. */
  async resolve(token: string): Promise<ResolvedRecoveryLink> {
    const id = this.tokens.verify(token);
    if (id === null) return null;
    const link = await this.links.findById(id);
    if (!link) return null;
    if (link.revokedAt !== null) return { state: 'revoked', link };
    if (link.expiresAt.getTime() <= this.clock.now().getTime()) return { state: 'expired', link };
    return { state: 'live', link };
  }

  /** The provider's card form for this customer and a customer access token made now. */
  checkoutUrl(providerCustomerId: string, customerAccessToken: string): string {
    const url = new URL(this.checkoutBase());
    url.searchParams.set('customerID', providerCustomerId);
    url.searchParams.set('customerAccessToken', customerAccessToken);
    return url.toString();
  }

  /** The card form's origin, which the page's policy allows as a form target. */
  checkoutOrigin(): string {
    return new URL(this.checkoutBase()).origin;
  }

  private checkoutBase(): string {
    return this.config.providerCheckoutUrl ?? new URL('/sandbox/hosted-form', this.runtime.providerBaseUrl).toString();
  }

  /** PUBLIC_URL, or the daemon's own local address. */
  private baseUrl(): string {
    return this.config.publicUrl ?? `http://127.0.0.1:${this.config.port}`;
  }
}
