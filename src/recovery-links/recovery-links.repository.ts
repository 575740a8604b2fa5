import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { RecoveryLink } from './recovery-link.entity';

/** Every statement on `recovery_links`. */
@Injectable()
export class RecoveryLinksRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * Revokes the charge's live links and writes the new one, in the caller's transaction. The charge's earlier links
   * are locked by the update, so two mints for one charge at once leave exactly one link live.
   */
  async replace(em: EntityManager, link: Pick<RecoveryLink, 'id' | 'chargeId' | 'customerId' | 'expiresAt'>, now: Date): Promise<void> {
    await em.query(`UPDATE recovery_links SET revoked_at = $2 WHERE charge_id = $1 AND revoked_at IS NULL`, [link.chargeId, now]);
    await em.query(`INSERT INTO recovery_links (id, charge_id, customer_id, expires_at, revoked_at, created_at) VALUES ($1, $2, $3, $4, NULL, $5)`, [
      link.id,
      link.chargeId,
      link.customerId,
      link.expiresAt,
      now,
    ]);
  }

  /** The charges of `customerId` with a link neither revoked nor expired at `now`. */
  async chargesWithLiveLinks(customerId: string, now: Date): Promise<string[]> {
    const rows: { charge_id: string }[] = await this.dataSource.query(
      `SELECT DISTINCT charge_id FROM recovery_links WHERE customer_id = $1 AND revoked_at IS NULL AND expires_at > $2`,
      [customerId, now],
    );
    return rows.map((r) => r.charge_id);
  }

  findById(id: string): Promise<RecoveryLink | null> {
    return this.dataSource.getRepository(RecoveryLink).findOneBy({ id });
  }

  /** Runs `work` in one short transaction. */
  transaction<T>(work: (em: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(work);
  }
}
