import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import type { Destination, Withdrawal, WithdrawalStatus } from '../../gateway/provider-api.types';
import { CARD_GROUPS, failureTree } from '../cards/card-outcomes';
import { BodyReader } from '../http/body-reader';
import { ProviderError } from '../http/provider-error';
import { accepted, created, ok, ProviderReply } from '../http/provider-reply';
import { queryInteger, QueryParams } from '../http/query-params';
import { SandboxConfig } from '../sandbox-config';
import type { WithdrawalRecord } from '../state/sandbox-records';
import { SandboxStateService } from '../state/sandbox-state.service';
import { CardVaultService } from './card-vault.service';
import { IdempotencyService } from './idempotency.service';
import { SandboxScheduler } from './sandbox-scheduler.service';
import { CURRENCY } from './wallet.service';
import { WebhookEventsService } from './webhook-events.service';

/** Payout destinations (bound cards) and withdrawals to them. */
@Injectable()
export class PayoutsService implements OnApplicationBootstrap {
  constructor(
    private readonly config: SandboxConfig,
    private readonly store: SandboxStateService,
    private readonly idempotency: IdempotencyService,
    private readonly vault: CardVaultService,
    private readonly scheduler: SandboxScheduler,
    private readonly webhookEvents: WebhookEventsService,
  ) {}

  /** Destinations and withdrawals still in flight when the state file was saved finish after a restart. */
  onApplicationBootstrap(): void {
    for (const [id, record] of this.store.state.destinations) {
      if (record.destination.status === 'Unauthorized') this.scheduleAuthorization(id);
    }
    for (const [id, record] of this.store.state.withdrawals) {
      if (record.withdrawal.status === 'Pending') this.scheduleCompletion(id);
    }
  }

  /** Operation 11. */
  createDestination(body: unknown): ProviderReply {
    const params = BodyReader.root(body, 'Destination');
    const name = params.requireString('name', { min: 1 });
    const identityID = params.requireString('identity', { min: 1 });
    const currency = params.requireString('currency', { pattern: CURRENCY });
    const resource = params.requireObject('resource');
    resource.requireString('type', { oneOf: ['BankCardDestinationResource'] });
    const token = resource.requireString('token', { min: 1 });
    const metadata = params.optionalRecord('metadata');
    const externalID = params.optionalString('externalID', { min: 1 });

    const { state } = this.store;
    const existingID = this.idempotency.existing('createDestination', externalID, params.raw());
    const existing = existingID !== undefined ? state.destinations.get(existingID) : undefined;
    if (existing) return created(existing.destination);
    if (!state.identities.has(identityID)) throw ProviderError.wallet422('No such identity');
    const cardToken = this.vault.liveCardToken(token);
    if (!cardToken) throw ProviderError.wallet400('InvalidResourceToken', 'resource', 'Specified resource token is invalid');

    const { card } = cardToken;
    const destination: Destination = {
      id: state.nextSequence('destination'),
      name,
      identity: identityID,
      currency,
      // The provider answers with its card-storage token, which looks nothing like the payres token.
      resource: { type: 'BankCardDestinationResource', token: randomBytes(16).toString('hex').toUpperCase(), bin: card.bin, lastDigits: card.lastDigits, paymentSystem: card.paymentSystem },
      ...(metadata !== undefined ? { metadata } : {}),
      ...(externalID !== undefined ? { externalID } : {}),
      status: 'Unauthorized',
      isBlocked: false,
      createdAt: new Date().toISOString(),
    };
    state.destinations.set(destination.id, { destination, card });
    this.webhookEvents.destinationCreated(destination);
    this.idempotency.remember('createDestination', externalID, params.raw(), destination.id);
    this.scheduleAuthorization(destination.id);
    return created(destination);
  }

  /** Operation 12. */
  getDestination(destinationID: string): ProviderReply {
    const record = this.store.state.destinations.get(destinationID);
    if (!record) throw ProviderError.wallet404();
    return ok(record.destination);
  }

  /** Operation 13: 202 Pending; the test bank answers after withdrawalMs. */
  createWithdrawal(body: unknown): ProviderReply {
    const params = BodyReader.root(body, 'WithdrawalParameters');
    const walletID = params.requireString('wallet', { min: 1 });
    const destinationID = params.requireString('destination', { min: 1 });
    const cash = params.requireObject('body');
    const amount = cash.requireInteger('amount', { min: 1 });
    const currency = cash.requireString('currency', { pattern: CURRENCY });
    const metadata = params.optionalRecord('metadata');
    const externalID = params.optionalString('externalID', { min: 1 });

    const { state } = this.store;
    const existingID = this.idempotency.existing('createWithdrawal', externalID, params.raw());
    const existing = existingID !== undefined ? state.withdrawals.get(existingID) : undefined;
    if (existing) return accepted(existing.withdrawal);
    const wallet = state.wallets.get(walletID);
    if (!wallet) throw ProviderError.wallet422('No such wallet');
    const destination = state.destinations.get(destinationID);
    if (!destination) throw ProviderError.wallet422('No such destination');
    if (destination.destination.status !== 'Authorized') throw ProviderError.wallet422('Destination unauthorized');
    if (currency !== wallet.currency || currency !== destination.destination.currency) throw ProviderError.wallet422('Invalid currency');

    const withdrawal: Withdrawal = {
      id: state.nextSequence('withdrawal'),
      wallet: walletID,
      destination: destinationID,
      body: { amount, currency },
      createdAt: new Date().toISOString(),
      ...(externalID !== undefined ? { externalID } : {}),
      ...(metadata !== undefined ? { metadata } : {}),
      status: 'Pending',
    };
    const record: WithdrawalRecord = { withdrawal, events: [], plannedFailure: CARD_GROUPS[destination.card.group].payoutFailure };
    state.withdrawals.set(withdrawal.id, record);
    emitStatus(record, 'Pending');
    this.webhookEvents.withdrawalStarted(record);
    this.idempotency.remember('createWithdrawal', externalID, params.raw(), withdrawal.id);
    this.scheduleCompletion(withdrawal.id);
    return accepted(withdrawal);
  }

  /** GET /wallet/v0/external-ids/withdrawals/{externalID}: the withdrawal made under this externalID. */
  getWithdrawalByExternalId(externalID: string): ProviderReply {
    const id = this.idempotency.idOf('createWithdrawal', externalID);
    const record = id !== undefined ? this.store.state.withdrawals.get(id) : undefined;
    if (!record) throw ProviderError.wallet404();
    return ok(record.withdrawal);
  }

  /** Operation 14. */
  getWithdrawal(withdrawalID: string): ProviderReply {
    const record = this.store.state.withdrawals.get(withdrawalID);
    if (!record) throw ProviderError.wallet404();
    return ok(record.withdrawal);
  }

  /** GET /wallet/v0/withdrawals/{id}/events?limit=1..1000[&eventCursor=N]: status changes after the cursor. */
  events(withdrawalID: string, query: QueryParams): ProviderReply {
    const limit = queryInteger(query, 'limit', { required: true, min: 1, max: 1000 });
    const cursor = queryInteger(query, 'eventCursor') ?? 0;
    const record = this.store.state.withdrawals.get(withdrawalID);
    if (!record) throw ProviderError.wallet404();
    return ok(record.events.filter((event) => event.eventID > cursor).slice(0, limit));
  }

  private scheduleAuthorization(destinationID: string): void {
    this.scheduler.after(this.config.delays.authorizeDestinationMs, () => {
      const record = this.store.state.destinations.get(destinationID);
      if (!record || record.destination.status !== 'Unauthorized') return;
      record.destination.status = 'Authorized';
      this.webhookEvents.destinationAuthorized(record.destination);
      this.store.changed();
    });
  }

  private scheduleCompletion(withdrawalID: string): void {
    this.scheduler.after(this.config.delays.withdrawalMs, () => {
      const record = this.store.state.withdrawals.get(withdrawalID);
      if (!record || record.withdrawal.status !== 'Pending') return;
      if (record.plannedFailure) {
        record.withdrawal.status = 'Failed';
        record.withdrawal.failure = failureTree(record.plannedFailure);
      } else {
        record.withdrawal.status = 'Succeeded';
      }
      emitStatus(record, record.withdrawal.status);
      this.webhookEvents.withdrawalFinished(record);
      this.store.changed();
    });
  }
}

function emitStatus(record: WithdrawalRecord, status: WithdrawalStatus): void {
  const failure = status === 'Failed' ? record.withdrawal.failure : undefined;
  record.events.push({
    eventID: record.events.length + 1,
    occuredAt: new Date().toISOString(),
    changes: [{ type: 'WithdrawalStatusChanged', status, ...(failure ? { failure: structuredClone(failure) } : {}) }],
  });
}
