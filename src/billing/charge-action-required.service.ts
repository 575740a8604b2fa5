import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { EventsService } from '../events/events.service';
import { RecoveryLinksService } from '../recovery-links/recovery-links.service';
import { ChargeAttemptsRepository } from './charge-attempts.repository';
import { toChargeResponse } from './charge-response';
import { ChargesRepository } from './charges.repository';

/**
 * `charge.action_required`: the charge waits for its customer (a new card, or dunning is over). A fresh recovery link is
 * minted in the settling transaction and carried as `data.recoveryUrl`, beside the charge as GET shows it.
 */
@Injectable()
export class ChargeActionRequiredService {
  constructor(
    private readonly charges: ChargesRepository,
    private readonly attempts: ChargeAttemptsRepository,
    private readonly events: EventsService,
    private readonly recoveryLinks: RecoveryLinksService,
  ) {}

  async announceIn(em: EntityManager, chargeId: string): Promise<void> {
    const charge = await this.charges.findById(chargeId, em);
    if (!charge) return;
    const link = await this.recoveryLinks.mintIn(em, { chargeId: charge.id, customerId: charge.customerId });
    const object = toChargeResponse(charge, await this.attempts.ofCharge(chargeId, em));
    await this.events.record(em, [{ type: 'charge.action_required', data: { object, recoveryUrl: link?.url ?? null } }]);
  }
}
