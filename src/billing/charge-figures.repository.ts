import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

/** What a charge's latest attempt in a time range came to. */
export type AttemptOutcome = 'succeeded' | 'declined' | 'in_flight';

export interface OutcomeFigure {
  outcome: AttemptOutcome;
  currency: string;
  count: number;
  amount: number;
}

export interface DunningFigure {
  currency: string;
  retrying: number;
  awaitingCard: number;
  amount: number;
}

/** Aggregate reads of `charges` and `charge_attempts` for the dashboard; each is one statement. */
@Injectable()
export class ChargeFiguresRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Charges attempted in [from, to), each counted once by its latest attempt in that range, per currency. */
  async outcomesBetween(from: Date, to: Date): Promise<OutcomeFigure[]> {
    const rows: { outcome: AttemptOutcome; currency: string; n: number; amount: string }[] = await this.dataSource.query(
      `SELECT CASE WHEN last.status IN ('succeeded', 'declined') THEN last.status ELSE 'in_flight' END AS outcome,
              c.currency, count(*)::int AS n, sum(c.amount)::bigint AS amount
         FROM (SELECT DISTINCT ON (a.charge_id) a.charge_id, a.status FROM charge_attempts a
                WHERE a.attempted_at >= $1 AND a.attempted_at < $2 ORDER BY a.charge_id, a.number DESC) last
         JOIN charges c ON c.id = last.charge_id
        GROUP BY 1, 2 ORDER BY 1, 2`,
      [from, to],
    );
    return rows.map((r) => ({ outcome: r.outcome, currency: r.currency, count: r.n, amount: Number(r.amount) }));
  }

  /** Charges in dunning now: declined and waiting for their next attempt, or for a new card after a hard decline. */
  async dunning(): Promise<DunningFigure[]> {
    const rows: { currency: string; retrying: number; awaiting_card: number; amount: string }[] = await this.dataSource.query(
      `SELECT currency, count(*) FILTER (WHERE status = 'retrying')::int AS retrying,
              count(*) FILTER (WHERE step = 'awaiting_card')::int AS awaiting_card, sum(amount)::bigint AS amount
         FROM charges WHERE status = 'retrying' OR step = 'awaiting_card' GROUP BY currency ORDER BY currency`,
    );
    return rows.map((r) => ({ currency: r.currency, retrying: r.retrying, awaitingCard: r.awaiting_card, amount: Number(r.amount) }));
  }
}
