import { LeasedQueues } from '../work/leased-queues.service';
import { Injectable, Logger } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { ShutdownSignal } from '../common/shutdown-signal';
import { ProcessingGateway } from '../gateway/processing.gateway';
import type { Webhook } from '../gateway/provider-api.types';
import { WalletGateway } from '../gateway/wallet.gateway';
import { backoffDelayMs } from '../work/backoff';
import { Claim, LeasedQueue } from '../work/leased-queue';
import { LeaseLostError } from '../work/lease-lost.error';
import { WorkRunnerService } from '../work/work-runner.service';
import { WorkTuning } from '../work/work-tuning';
import { ProviderWebhook } from './provider-webhook.entity';
import { ProviderWebhooksRepository, WantedWebhook } from './provider-webhooks.repository';
import { WebhookHealthService } from './webhook-health.service';

const PROVIDER_WEBHOOKS_QUEUE = 'provider-webhooks';
const PROVIDER_WEBHOOK_PATH = '/webhooks/provider';
/** A registered webhook is looked for at the provider again this often, and registered again if it is gone. */
const RECHECK_MS = 3_600_000;

/** The event types the daemon listens to: the ones that move its state machines. */
const EVENT_TYPES = {
  InvoicesTopic: ['PaymentCaptured', 'PaymentFailed', 'PaymentCancelled', 'InvoicePaid', 'InvoiceCancelled', 'PaymentRefundSucceeded', 'PaymentRefundFailed'],
  CustomersTopic: ['CustomerReady', 'CustomerBindingStarted', 'CustomerBindingSucceeded', 'CustomerBindingFailed'],
  WithdrawalsTopic: ['WithdrawalSucceeded', 'WithdrawalFailed'],
  DestinationsTopic: ['DestinationAuthorized', 'DestinationUnauthorized'],
} as const;

/**
 * Keeps the daemon's webhooks registered at the provider: for its shop (invoices, customers) once it has a public
 * URL, and for the payout wallet once payouts are set up. Each wanted webhook is a row, registered by one
 * scheduling process on the work engine: it lists the provider's webhooks first and adopts a matching one, so
 * restarts and replicas never register one twice, and keeps the public key the provider answers.
 */
@Injectable()
export class ProviderWebhookRegistrationService {
  private readonly logger = new Logger(ProviderWebhookRegistrationService.name);
  private readonly queue: LeasedQueue<ProviderWebhook>;
  private url: string | undefined;
  private wallet: { identityId: string; walletId: string } | undefined;

  constructor(
    private readonly webhooks: ProviderWebhooksRepository,
    private readonly processing: ProcessingGateway,
    private readonly walletGateway: WalletGateway,
    private readonly config: AppConfig,
    private readonly runner: WorkRunnerService,
    private readonly tuning: WorkTuning,
    private readonly shutdown: ShutdownSignal,
    private readonly health: WebhookHealthService,
    queues: LeasedQueues,
  ) {
    this.queue = queues.create<ProviderWebhook>({
      name: PROVIDER_WEBHOOKS_QUEUE,
      entity: ProviderWebhook,
      dueColumn: 'next_attempt_at',
      dueAgainst: 'database',
      hasNotBefore: false,
    });
  }

  /**
   * Starts registering at `publicUrl` (PUBLIC_URL, or the daemon's own address with the built-in sandbox), once the
   * admin API listens. Without a URL, or in a process that does not run the scheduler, nothing is registered here.
   */
  async start(publicUrl: string | undefined): Promise<void> {
    if (!publicUrl || !this.config.schedulerEnabled) return;
    this.url = `${publicUrl.replace(/\/+$/, '')}${PROVIDER_WEBHOOK_PATH}`;
    this.health.expectAt(this.url);
    this.runner.start(PROVIDER_WEBHOOKS_QUEUE, () => this.registerDue());
    await this.want();
    this.logger.log(`Provider webhooks are wanted at ${this.url}; polling stays as the safety net`);
  }

  /** Payouts are set up: the wallet's webhooks are wanted too. */
  async walletReady(identityId: string, walletId: string): Promise<void> {
    this.wallet = { identityId, walletId };
    await this.want();
  }

  /** The registrations recorded, for tests and operators. */
  list(): Promise<ProviderWebhook[]> {
    return this.webhooks.findAll();
  }

  private async want(): Promise<void> {
    if (!this.url) return;
    const url = this.url;
    const wanted: WantedWebhook[] = [
      { api: 'processing', topic: 'InvoicesTopic', scopeKey: this.config.providerShopId, url },
      { api: 'processing', topic: 'CustomersTopic', scopeKey: this.config.providerShopId, url },
    ];
    if (this.wallet) {
      const scopeKey = `${this.wallet.identityId}/${this.wallet.walletId}`;
      wanted.push({ api: 'wallet', topic: 'WithdrawalsTopic', scopeKey, url }, { api: 'wallet', topic: 'DestinationsTopic', scopeKey, url });
    }
    if ((await this.webhooks.want(wanted)) > 0) this.runner.kick(PROVIDER_WEBHOOKS_QUEUE);
  }

  private registerDue(): Promise<number> {
    return this.queue.drain(
      (limit) => this.queue.claim(limit),
      (claim) => this.register(claim),
      { concurrency: 1, batchSize: 4, stopping: () => this.shutdown.isShuttingDown },
    );
  }

  private async register(claim: Claim<ProviderWebhook>): Promise<void> {
    const row = claim.row;
    const wasActive = row.status === 'active';
    try {
      const { id, publicKey } = row.api === 'processing' ? await this.registerProcessing(row) : await this.registerWallet(row);
      // The provider has it: its id and key are kept, and it is checked again later (a provider that lost it gets it
      // back). A lost lease (LeasedQueue.lost) ends the step here.
      await this.queue.write(
        claim,
        { status: 'active', providerWebhookId: id, publicKey, failures: 0, lastError: null },
        { release: true, dueInMs: RECHECK_MS },
      );
      this.health.noteRegistered(row.topic);
      if (!wasActive) this.logger.log(`Provider webhook ${row.topic} is registered (${id})`);
    } catch (error) {
      if (error instanceof LeaseLostError) throw error;
      const delayMs = backoffDelayMs(row.failures + 1, this.tuning.backoffMs, this.tuning.maxBackoffMs);
      const message = error instanceof Error ? error.message : String(error);
      this.logger.warn(`Registering the provider webhook ${row.topic} failed; trying again in ${Math.round(delayMs / 1000)} s: ${message}`);
      await this.queue.write(claim, { failures: row.failures + 1, lastError: message.slice(0, 300) }, { release: true, dueInMs: delayMs });
    }
  }

  /**
   * A creation whose answer was lost shows in the list on the next try, so nothing is ever registered twice. A webhook
   * registered before the daemon listened to some of these event types (one without the refund events, made before
   * refunds existed) is replaced: a new one with every type, then the old one deleted (best effort; the daemon
   * deduplicates an event delivered by both meanwhile).
   */
  private async registerProcessing(row: ProviderWebhook): Promise<{ id: string; publicKey: string }> {
    const topic = row.topic as 'InvoicesTopic' | 'CustomersTopic';
    const eventTypes: readonly string[] = EVENT_TYPES[topic];
    const covers = (w: Webhook) => eventTypes.every((type) => (w.scope.eventTypes as string[]).includes(type));
    const ours = (await this.processing.listWebhooks()).filter((w) => w.active && w.url === row.url && w.scope.topic === topic && w.scope.shopID === row.scopeKey);
    const scope =
      topic === 'InvoicesTopic'
        ? { topic, shopID: row.scopeKey, eventTypes: [...EVENT_TYPES.InvoicesTopic] }
        : { topic, shopID: row.scopeKey, eventTypes: [...EVENT_TYPES.CustomersTopic] };
    const kept = ours.find(covers) ?? (await this.processing.createWebhook({ scope, url: row.url }));
    for (const stale of ours.filter((w) => w.id !== kept.id && !covers(w))) {
      await this.processing.deleteWebhook(stale.id).catch((error: unknown) => this.logger.warn({ err: error }, `Could not delete the older provider webhook ${stale.id}; it is tried again at the next check`));
    }
    return kept;
  }

  private async registerWallet(row: ProviderWebhook): Promise<{ id: string; publicKey: string }> {
    const [identityID, walletID] = row.scopeKey.split('/');
    const topic = row.topic as 'WithdrawalsTopic' | 'DestinationsTopic';
    const existing = (await this.walletGateway.listWalletWebhooks(identityID)).find(
      (w) => w.active && w.url === row.url && w.scope.topic === topic && (topic === 'DestinationsTopic' || ('walletID' in w.scope && w.scope.walletID === walletID)),
    );
    if (existing) return existing;
    const scope =
      topic === 'WithdrawalsTopic'
        ? { topic, walletID, eventTypes: [...EVENT_TYPES.WithdrawalsTopic] }
        : { topic, eventTypes: [...EVENT_TYPES.DestinationsTopic] };
    return this.walletGateway.createWalletWebhook({ identityID, scope, url: row.url });
  }
}
