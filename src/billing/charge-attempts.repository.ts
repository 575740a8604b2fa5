import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, In, IsNull, Not } from 'typeorm';
import { ChargeAttempt } from './charge-attempt.entity';

/** Every statement on the `charge_attempts` table that is not part of a combined charge write. */
@Injectable()
export class ChargeAttemptsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The charge's attempts, oldest first (in `em`'s transaction when given). */
  ofCharge(chargeId: string, em: EntityManager = this.dataSource.manager): Promise<ChargeAttempt[]> {
    return em.getRepository(ChargeAttempt).find({ where: { chargeId }, order: { number: 'ASC' } });
  }

  /** Attempts of several charges, grouped by charge. */
  async ofCharges(chargeIds: string[]): Promise<Map<string, ChargeAttempt[]>> {
    const byCharge = new Map<string, ChargeAttempt[]>();
    if (chargeIds.length === 0) return byCharge;
    for (const a of await this.dataSource.getRepository(ChargeAttempt).findBy({ chargeId: In(chargeIds) })) {
      byCharge.set(a.chargeId, [...(byCharge.get(a.chargeId) ?? []), a]);
    }
    return byCharge;
  }

  /**
   * Each customer's newest declined attempt (by business time, any of their charges) with its code and the card its
   * charge was first declined on; customers without a declined attempt are left out. One statement for a page.
   */
  async latestDeclinesOf(customerIds: string[]): Promise<Map<string, { errorCode: string | null; bindingId: string | null }>> {
    if (customerIds.length === 0) return new Map();
    const rows: { customer_id: string; error_code: string | null; dunning_binding_id: string | null }[] = await this.dataSource.query(
      `SELECT DISTINCT ON (c.customer_id) c.customer_id, a.error_code, c.dunning_binding_id
         FROM charges c JOIN charge_attempts a ON a.charge_id = c.id
        WHERE c.customer_id = ANY($1::uuid[]) AND a.status = 'declined'
        ORDER BY c.customer_id, a.attempted_at DESC, a.created_at DESC, a.number DESC`,
      [customerIds],
    );
    return new Map(rows.map((r) => [r.customer_id, { errorCode: r.error_code, bindingId: r.dunning_binding_id }]));
  }

  /** The create's outcome is unknown; only from pending, so a worker that lost its claim never overwrites an outcome. */
  async markUnknown(attemptId: string): Promise<void> {
    await this.dataSource.getRepository(ChargeAttempt).update({ id: attemptId, status: 'pending' }, { status: 'unknown' });
  }

  /** The newest attempt the provider has a payment for, whatever its recorded status. */
  latestWithPayment(chargeId: string): Promise<ChargeAttempt> {
    return this.dataSource
      .getRepository(ChargeAttempt)
      .findOneOrFail({ where: { chargeId, providerPaymentId: Not(IsNull()) }, order: { number: 'DESC' } });
  }

  /** A final outcome; `paymentId` is the provider's payment when this claim learned it and has not recorded it yet. */
  async markFinal(em: EntityManager, attempt: { id: string; paymentId: string | null }, outcome: { status: 'succeeded' } | { status: 'declined'; errorCode: string }): Promise<void> {
    await em.update(ChargeAttempt, { id: attempt.id }, { ...outcome, ...(attempt.paymentId ? { providerPaymentId: attempt.paymentId } : {}) });
  }
}
