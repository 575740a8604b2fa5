import { Injectable } from '@nestjs/common';
import { ChargeFiguresService } from '../billing/charge-figures.service';
import { Clock } from '../common/clock/clock';
import { SubscriptionsService } from '../subscriptions/subscriptions.service';
import { WebhookEndpointsService } from '../webhooks/webhook-endpoints.service';

const SUBSCRIPTION_STATUSES = ['incomplete', 'trialing', 'active', 'past_due', 'paused', 'unpaid', 'canceled'] as const;

/** Failing endpoints listed by name on the dashboard; the count covers them all. */
const FAILING_ENDPOINTS_SHOWN = 10;

/** The operator's first screen: each figure read from the module that owns it, one statement each. */
@Injectable()
export class DashboardService {
  constructor(
    private readonly clock: Clock,
    private readonly charges: ChargeFiguresService,
    private readonly subscriptions: SubscriptionsService,
    private readonly endpoints: WebhookEndpointsService,
  ) {}

  async overview() {
    const now = this.clock.now();
    const dayStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
    const dayEnd = new Date(dayStart.getTime() + 86_400_000);
    const [outcomes, byStatus, dunning, failing] = await Promise.all([
      this.charges.outcomesBetween(dayStart, dayEnd),
      this.subscriptions.countByStatus(),
      this.charges.dunning(),
      this.endpoints.failing(FAILING_ENDPOINTS_SHOWN),
    ]);
    const count = (outcome: string) => outcomes.filter((o) => o.outcome === outcome).reduce((sum, o) => sum + o.count, 0);
    return {
      at: now.toISOString(),
      dayStart: dayStart.toISOString(),
      dayEnd: dayEnd.toISOString(),
      chargesToday: { succeeded: count('succeeded'), declined: count('declined'), inFlight: count('in_flight'), byCurrency: outcomes },
      subscriptionsByStatus: Object.fromEntries(SUBSCRIPTION_STATUSES.map((status) => [status, byStatus.get(status) ?? 0])),
      dunning: {
        retrying: dunning.reduce((sum, d) => sum + d.retrying, 0),
        awaitingCard: dunning.reduce((sum, d) => sum + d.awaitingCard, 0),
        byCurrency: dunning,
      },
      failingEndpoints: {
        count: failing.count,
        items: failing.items.map((e) => ({ id: e.id, url: e.url, enabled: e.enabled, consecutiveFailures: e.consecutiveFailures })),
      },
    };
  }
}
