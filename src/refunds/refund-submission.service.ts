import { Injectable, Logger } from '@nestjs/common';
import { ProcessingGateway } from '../gateway/processing.gateway';
import type { Refund as ProviderRefund, RefundParams } from '../gateway/provider-api.types';
import { ProviderError } from '../gateway/provider-error';
import { RefundMetricsService } from './refund-metrics.service';
import type { ClaimedRefund } from './refund-queue';
import type { Refund } from './refund.entity';

/**
 * What a create came to: the provider's refund (made now, or made before under the same externalID and adopted), a
 * definite refusal to record, or `wait` (another refund of the payment is still pending at the provider).
 */
export type Submitted = { refund: ProviderRefund } | { failureCode: string } | 'wait';

/**
 * Sends a card refund's create at the provider and makes sense of the answer. The body is rebuilt from the stored row
 * alone (externalID, amount, currency, reason, the cart fixed in the prepare step), so a replay is the same request and
 * the provider answers the refund the first one made. A technical failure (no answer, 5xx, the provider down) is thrown
 * for the processor to back off and replay; nothing is ever sent under a new externalID.
 */
@Injectable()
export class RefundSubmissionService {
  private readonly logger = new Logger(RefundSubmissionService.name);

  constructor(
    private readonly gateway: ProcessingGateway,
    private readonly metrics: RefundMetricsService,
  ) {}

  async submit(claim: ClaimedRefund): Promise<Submitted> {
    const refund = claim.row;
    const params: RefundParams = {
      externalID: refund.externalId as string,
      amount: refund.amount,
      currency: refund.currency,
      ...(refund.reason !== null ? { reason: refund.reason } : {}),
      ...(refund.cart !== null ? { cart: refund.cart } : {}),
    };
    try {
      return { refund: await this.gateway.createRefund(refund.providerInvoiceId as string, refund.providerPaymentId as string, params) };
    } catch (error) {
      if (!(error instanceof ProviderError)) throw error;
      // Another body under this externalID (a refund made again after a restore, its cart computed anew): read it back.
      if (error.kind === 'conflict') return this.adopt(refund, await this.gateway.getRefundByExternalId(refund.externalId as string));
      if (error.kind !== 'invalid_request' && error.kind !== 'not_found') throw error;
      // A refusal of a request the provider made earlier (its answer lost in an earlier claim) would follow from that
      // first one's effect: what the provider holds under the externalID decides, not the refusal.
      const made = await this.readBack(refund.externalId as string);
      if (made) return this.adopt(refund, made);
      if (error.code === 'operationNotPermitted' && (await this.anotherPending(refund))) return 'wait';
      return { failureCode: `rejected:${error.code ?? error.kind}`.slice(0, 200) };
    }
  }

  /**
   * The provider's refund under this refund's externalID, made by an earlier process or before the database was
   * restored: this refund's own when it moves the same money; otherwise nothing is sent and a person looks.
   */
  private adopt(refund: Refund, found: ProviderRefund): Submitted {
    if (found.amount !== refund.amount || found.currency !== refund.currency) {
      this.logger.error(
        `Refund ${refund.id}: the provider's refund ${found.id} under this externalID moves ${found.amount} ${found.currency}, not ${refund.amount} ${refund.currency}; nothing sent`,
      );
      return { failureCode: 'refund_conflict:amount_differs' };
    }
    this.metrics.adopted.inc();
    this.logger.warn(`Refund ${refund.id}: the provider already holds refund ${found.id} under this externalID (reference ${refund.reference ?? 'none'}); following it`);
    return { refund: found };
  }

  private async readBack(externalId: string): Promise<ProviderRefund | null> {
    try {
      return await this.gateway.getRefundByExternalId(externalId);
    } catch (error) {
      if (error instanceof ProviderError && error.kind === 'not_found') return null;
      throw error;
    }
  }

  /** operationNotPermitted means a pending refund of the payment (then wait) or terms that forbid it (a refusal). */
  private async anotherPending(refund: Refund): Promise<boolean> {
    const refunds = await this.gateway.getRefunds(refund.providerInvoiceId as string, refund.providerPaymentId as string);
    return refunds.some((r) => r.status === 'pending');
  }
}
