import type { SelectQueryBuilder } from 'typeorm';
import type { Charge } from './charge.entity';
import type { ListChargesQueryDto } from './list-charges-query.dto';

/** The list's filters on a query of charges `ch`. */
export function filterCharges(qb: SelectQueryBuilder<Charge>, query: ListChargesQueryDto): SelectQueryBuilder<Charge> {
  if (query.status) qb.andWhere('ch.status = :status', { status: query.status });
  if (query.subscriptionId) qb.andWhere('ch.subscriptionId = :subscriptionId', { subscriptionId: query.subscriptionId });
  if (query.customerId) qb.andWhere('ch.customerId = :customerId', { customerId: query.customerId });
  if (query.lastAttempt || query.attemptedAfter || query.attemptedBefore) {
    // The charge's latest attempt in the range, as the dashboard counts a charge's outcome of the day.
    qb.andWhere(
      `EXISTS (SELECT 1 FROM (SELECT a.status FROM charge_attempts a
                WHERE a.charge_id = ch.id AND a.attempted_at >= COALESCE(CAST(:attemptedAfter AS timestamptz), '-infinity')
                  AND a.attempted_at < COALESCE(CAST(:attemptedBefore AS timestamptz), 'infinity')
                ORDER BY a.number DESC LIMIT 1) latest
               WHERE CAST(:lastAttempt AS text) IS NULL OR latest.status = CAST(:lastAttempt AS text))`,
      { attemptedAfter: query.attemptedAfter ?? null, attemptedBefore: query.attemptedBefore ?? null, lastAttempt: query.lastAttempt ?? null },
    );
  }
  return qb;
}
