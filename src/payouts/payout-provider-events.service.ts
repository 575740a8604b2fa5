import { Inject, Injectable, OnApplicationBootstrap, OnModuleInit } from '@nestjs/common';
import { SystemClock } from '../common/clock/system-clock';
import { ApplyOutcome } from '../provider-webhooks/provider-event-router.service';
import { ProviderEventRouter } from '../provider-webhooks/provider-event-router.service';
import { ProviderWebhookRegistrationService } from '../provider-webhooks/provider-webhook-registration.service';
import { WorkRunnerService } from '../work/work-runner.service';
import { PAYOUT_QUEUE, PayoutQueue } from './payout-queue';
import { PayoutDestinationsRepository } from './payout-destinations.repository';
import { PAYOUTS_QUEUE } from './payout-scheduler.service';
import { PayoutSetupService } from './payout-setup.service';
import { PayoutsRepository } from './payouts.repository';

/**
 * The wallet side of the provider's webhooks: once payouts are set up the wallet's webhooks are wanted, and a
 * withdrawal or destination event makes its payout or destination read the provider now instead of at its next poll.
 */
@Injectable()
export class PayoutProviderEventsService implements OnModuleInit, OnApplicationBootstrap {
  constructor(
    private readonly router: ProviderEventRouter,
    private readonly registration: ProviderWebhookRegistrationService,
    private readonly setup: PayoutSetupService,
    private readonly payouts: PayoutsRepository,
    private readonly destinations: PayoutDestinationsRepository,
    private readonly runner: WorkRunnerService,
    @Inject(PAYOUT_QUEUE) private readonly queue: PayoutQueue,
    private readonly clock: SystemClock,
  ) {}

  onModuleInit(): void {
    this.router.on('withdrawal', async (event): Promise<ApplyOutcome> => {
      if (event.eventType !== 'WithdrawalSucceeded' && event.eventType !== 'WithdrawalFailed') return 'ignored';
      const result = await this.queue.wake(this.payouts.ofWithdrawal(event.objectId), this.clock.now());
      if (result === 'woken') this.runner.kick(PAYOUTS_QUEUE);
      return result === 'woken' || result === 'settled' ? 'applied' : result === 'none' ? 'unknown_object' : 'busy';
    });
    this.router.on('destination', async (event): Promise<ApplyOutcome> => {
      if (!(await this.destinations.followNowByProviderId(event.objectId))) return 'unknown_object';
      this.runner.kick(PAYOUTS_QUEUE);
      return 'applied';
    });
    this.setup.onReady((setup) => this.registration.walletReady(setup.identityId, setup.walletId));
  }

  /** A daemon restarted after the setup wants the wallet's webhooks too. */
  async onApplicationBootstrap(): Promise<void> {
    const setup = await this.setup.find().catch(() => null);
    if (setup) await this.registration.walletReady(setup.identityId, setup.walletId);
  }
}
