import { Injectable } from '@nestjs/common';
import { DESTINATION_WEBHOOK_EVENT_TYPES, WalletWebhook, WalletWebhookScope, WITHDRAWAL_WEBHOOK_EVENT_TYPES } from '../../gateway/provider-api.types';
import { BodyReader } from '../http/body-reader';
import { ProviderError } from '../http/provider-error';
import { created, ok, ProviderReply } from '../http/provider-reply';
import type { QueryParams } from '../http/query-params';
import { SchemaViolation } from '../http/schema-violation';
import { SandboxStateService } from '../state/sandbox-state.service';
import { readEventTypes, readWebhookUrl } from '../webhooks/webhook-params';
import { WebhookKeysService } from './webhook-keys.service';

/** Wallet API webhooks (/wallet/v0/webhooks): each belongs to an identity, which every request names. */
@Injectable()
export class WalletWebhooksService {
  constructor(
    private readonly store: SandboxStateService,
    private readonly keys: WebhookKeysService,
  ) {}

  async create(body: unknown): Promise<ProviderReply> {
    const params = BodyReader.root(body, 'WebhookParams');
    const identityID = params.requireString('identityID', { min: 1 });
    const scopeReader = params.requireObject('scope');
    const topic = scopeReader.requireString('topic', { oneOf: ['WithdrawalsTopic', 'DestinationsTopic'] });
    let scope: WalletWebhookScope;
    if (topic === 'WithdrawalsTopic') {
      const walletID = scopeReader.optionalString('walletID', { min: 1 });
      const eventTypes = readEventTypes(scopeReader, WITHDRAWAL_WEBHOOK_EVENT_TYPES);
      scope = { topic, ...(walletID !== undefined ? { walletID } : {}), eventTypes };
    } else {
      scope = { topic: 'DestinationsTopic', eventTypes: readEventTypes(scopeReader, DESTINATION_WEBHOOK_EVENT_TYPES) };
    }
    const url = readWebhookUrl(params);

    const { state } = this.store;
    if (!state.identities.has(identityID)) throw ProviderError.wallet422('No such identity');
    if (scope.topic === 'WithdrawalsTopic' && scope.walletID !== undefined && state.wallets.get(scope.walletID)?.identity !== identityID) {
      throw ProviderError.wallet422('No such wallet');
    }
    const publicKey = await this.keys.identityPublicKey(state.webhooks, identityID);
    const webhook: WalletWebhook = { id: String(state.webhooks.next('walletWebhook')), identityID, active: true, scope, url, publicKey };
    state.webhooks.wallet.set(webhook.id, webhook);
    return created(webhook);
  }

  list(query: QueryParams): ProviderReply {
    const identityID = this.identity(query);
    return ok([...this.store.state.webhooks.wallet.values()].filter((webhook) => webhook.identityID === identityID));
  }

  get(webhookID: string, query: QueryParams): ProviderReply {
    return ok(this.require(webhookID, this.identity(query)));
  }

  /** Its pending deliveries are dropped when their turn comes. */
  remove(webhookID: string, query: QueryParams): ProviderReply {
    this.require(webhookID, this.identity(query));
    this.store.state.webhooks.wallet.delete(webhookID);
    return { status: 204 };
  }

  /** The required `identityID` query parameter, naming an existing identity (else 422 "No such identity"). */
  private identity(query: QueryParams): string {
    const identityID = query['identityID'];
    if (identityID === undefined || identityID === '') throw new SchemaViolation('schema_violated', 'identityID');
    if (typeof identityID !== 'string') throw new SchemaViolation('wrong_type', 'identityID');
    if (!this.store.state.identities.has(identityID)) throw ProviderError.wallet422('No such identity');
    return identityID;
  }

  /** Another identity's webhook is as unknown as a missing one: 404 without a body. */
  private require(webhookID: string, identityID: string): WalletWebhook {
    const webhook = this.store.state.webhooks.wallet.get(webhookID);
    if (!webhook || webhook.identityID !== identityID) throw ProviderError.wallet404();
    return webhook;
  }
}
