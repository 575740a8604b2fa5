import { ConflictException, Injectable, Logger, UnprocessableEntityException } from '@nestjs/common';
import { ChargesService } from '../billing/charges.service';
import type { Charge } from '../billing/charge.entity';
import { withErrorCode } from '../common/errors/coded-error';
import { CustomersService } from '../customers/customers.service';
import { PlansService } from '../plans/plans.service';
import { SubscriptionsService } from '../subscriptions/subscriptions.service';
import { formatMoney, PageLanguage } from './recovery-page-texts';
import type { ClosedReason, RecoveryPageModel } from './recovery-page.view';
import { MintedRecoveryLink, RECOVERY_PAGE_PATH, RecoveryLinksService } from './recovery-links.service';

/** What a token leads to: no link (404 as an unknown path), a page that says why it is closed (410), or the page. */
export type RecoveryPageOutcome = { kind: 'unknown' } | { kind: 'closed'; reason: ClosedReason } | { kind: 'open'; model: RecoveryPageModel };

/** Only a charge the customer still owes after a decline has something to recover. */
const RECOVERABLE = new Set<Charge['status']>(['retrying', 'failed']);

/**
 * The recovery links' use: minting one for a charge (the admin route), the page a link opens, and its button, which
 * makes a customer access token at that moment and answers the card form's address. A link shows and binds only for
 * the one customer and charge of its row.
 */
@Injectable()
export class RecoveryPagesService {
  private readonly logger = new Logger(RecoveryPagesService.name);

  constructor(
    private readonly links: RecoveryLinksService,
    private readonly charges: ChargesService,
    private readonly customers: CustomersService,
    private readonly subscriptions: SubscriptionsService,
    private readonly plans: PlansService,
  ) {}

  /** POST /api/v1/charges/:id/recovery-link: a fresh link (the charge's earlier ones are revoked). */
  async mintForCharge(chargeId: string): Promise<MintedRecoveryLink> {
    const { charge } = await this.charges.get(chargeId);
    if (charge.status === 'succeeded') {
      throw withErrorCode(new ConflictException(`Charge ${chargeId} is paid: there is nothing to recover`), 'charge_already_paid');
    }
    if (!RECOVERABLE.has(charge.status)) {
      throw withErrorCode(
        new ConflictException(`Charge ${chargeId} is ${charge.status}: only a declined charge (retrying or failed) has something to recover`),
        'charge_not_recoverable',
      );
    }
    const link = await this.links.mint({ chargeId: charge.id, customerId: charge.customerId });
    if (!link) {
      throw withErrorCode(
        new UnprocessableEntityException('Recovery links need PROVIDER_CHECKOUT_URL (the provider\'s card form) when PROVIDER_URL is set'),
        'recovery_links_unavailable',
      );
    }
    return link;
  }

  /** What GET /pay/:token shows. */
  async page(token: string, language: PageLanguage): Promise<RecoveryPageOutcome> {
    const found = await this.usable(token);
    if (found.kind !== 'usable') return found;
    const { charge } = found;
    const customer = await this.customers.get(charge.customerId);
    const card = customer.card?.lastDigits ? `${customer.card.paymentSystem ?? ''} •••• ${customer.card.lastDigits}`.trim() : null;
    return {
      kind: 'open',
      model: {
        amount: formatMoney(charge.amount - charge.paidFromBalance, charge.currency, language),
        plan: await this.planName(charge),
        card,
        action: `${RECOVERY_PAGE_PATH}/${token}`,
      },
    };
  }

  /** What POST /pay/:token answers: the card form's address, with a customer access token made now. */
  async checkout(token: string): Promise<{ kind: 'redirect'; url: string } | { kind: 'unknown' } | { kind: 'closed'; reason: ClosedReason }> {
    const found = await this.usable(token);
    if (found.kind !== 'usable') return found;
    const customer = await this.customers.get(found.charge.customerId);
    try {
      const { customerAccessToken } = await this.customers.issueAccessToken(customer.id);
      return { kind: 'redirect', url: this.links.checkoutUrl(customer.providerCustomerId, customerAccessToken) };
    } catch (error) {
      this.logger.warn({ err: error, customerId: customer.id }, 'Could not make a customer access token for a recovery link');
      return { kind: 'closed', reason: 'unavailable' };
    }
  }

  /** The form's origin, allowed by the page's policy (Chrome applies form-action to the redirect after the POST). */
  checkoutOrigin(): string | null {
    return this.links.enabled ? this.links.checkoutOrigin() : null;
  }

  private async usable(token: string): Promise<{ kind: 'usable'; charge: Charge } | { kind: 'unknown' } | { kind: 'closed'; reason: ClosedReason }> {
    const resolved = await this.links.resolve(token);
    if (!resolved) return { kind: 'unknown' };
    const charge = await this.charges.get(resolved.link.chargeId).then(
      (found) => found.charge,
      () => null,
    );
    // The row names one charge and its customer: a charge that is not that customer's shows nothing.
    if (!charge || charge.customerId !== resolved.link.customerId) return { kind: 'unknown' };
    if (charge.status === 'succeeded') return { kind: 'closed', reason: 'paid' };
    if (resolved.state !== 'live') return { kind: 'closed', reason: resolved.state };
    // A charge being tried on the new card (pending, processing) still shows its page; a canceled one is no longer due.
    if (charge.status === 'canceled' || charge.status === 'skipped') return { kind: 'closed', reason: 'closed' };
    if (!this.links.enabled) return { kind: 'closed', reason: 'unavailable' };
    return { kind: 'usable', charge };
  }

  private async planName(charge: Charge): Promise<string> {
    if (charge.subscriptionId === null) return charge.description ?? '';
    const subscription = await this.subscriptions.get(charge.subscriptionId);
    return (await this.plans.get(subscription.planId)).name;
  }
}
