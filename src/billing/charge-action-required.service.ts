import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { EventsService } from '../events/events.service';
import { RecoveryLinksService } from '../recovery-links/recovery-links.service';
import type { Charge } from './charge.entity';
import type { toChargeResponse } from './charge-response';

/**
 * `charge.action_required`: the charge waits for its customer (a new card, or dunning is over). A fresh recovery link is
 * minted in the settling transaction and carried as `data.recoveryUrl`, beside the charge as GET shows it.
 */
@Injectable()
export class ChargeActionRequiredService {
  constructor(
    private readonly events: EventsService,
    private readonly recoveryLinks: RecoveryLinksService,
  ) {}

  /** `object`: the charge's response, as the settlement read it in `em` for its other events. */
  async announceIn(em: EntityManager, charge: Charge, object: ReturnType<typeof toChargeResponse>): Promise<void> {
    const link = await this.recoveryLinks.mintIn(em, { chargeId: charge.id, customerId: charge.customerId });
    await this.events.record(em, [{ type: 'charge.action_required', data: { object, recoveryUrl: link?.url ?? null } }]);
  }
}
