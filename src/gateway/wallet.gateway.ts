import { Injectable } from '@nestjs/common';
import type {
  BankCardParams,
  BankCardToken,
  Destination,
  DestinationParams,
  Identity,
  IdentityParams,
  Wallet,
  WalletParams,
  WalletWebhook,
  WalletWebhookParams,
  Withdrawal,
  WithdrawalEvent,
  WithdrawalEventsQuery,
  WithdrawalParams,
} from './provider-api.types';
import { deleteTolerantOfReplay } from './delete-tolerant-of-replay';
import { ProviderHttpClient } from './provider-http.client';

const seg = encodeURIComponent;

/**
 * Payouts to cards from the merchant's wallet (the provider's Wallet API and card tokenization).
 * Every method throws ProviderError on failure; business refusals come back as `business_rule` (422).
 */
@Injectable()
export class WalletGateway {
  constructor(private readonly client: ProviderHttpClient) {}

  createIdentity(params: IdentityParams): Promise<Identity> {
    return this.client.call({
      operation: 'createIdentity',
      method: 'POST',
      path: '/wallet/v0/identities',
      body: params,
      idempotent: params.externalID !== undefined,
      expect: 'object',
    });
  }

  createWallet(params: WalletParams): Promise<Wallet> {
    return this.client.call({
      operation: 'createWallet',
      method: 'POST',
      path: '/wallet/v0/wallets',
      body: params,
      idempotent: params.externalID !== undefined,
      expect: 'object',
    });
  }

  /** The body holds the card: it never reaches a log or an error. No externalID exists here, so an unknown outcome is not retried. */
  tokenizeBankCard(params: BankCardParams): Promise<BankCardToken> {
    return this.client.call({ operation: 'tokenizeBankCard', method: 'POST', path: '/payres/v0/bank-cards', body: params, idempotent: false, expect: 'object' });
  }

  createDestination(params: DestinationParams): Promise<Destination> {
    return this.client.call({
      operation: 'createDestination',
      method: 'POST',
      path: '/wallet/v0/destinations',
      body: params,
      idempotent: params.externalID !== undefined,
      expect: 'object',
    });
  }

  /** Reads a wallet, e.g. to learn the currency of one adopted from PAYOUT_WALLET_ID. */
  getWallet(walletId: string): Promise<Wallet> {
    return this.client.call({ operation: 'getWallet', method: 'GET', path: `/wallet/v0/wallets/${seg(walletId)}`, idempotent: true, expect: 'object' });
  }

  getDestination(destinationId: string): Promise<Destination> {
    return this.client.call({ operation: 'getDestination', method: 'GET', path: `/wallet/v0/destinations/${seg(destinationId)}`, idempotent: true, expect: 'object' });
  }

  /** Starts a payout; the provider answers 202 with the withdrawal in status Pending. */
  createWithdrawal(params: WithdrawalParams): Promise<Withdrawal> {
    return this.client.call({
      operation: 'createWithdrawal',
      method: 'POST',
      path: '/wallet/v0/withdrawals',
      body: params,
      idempotent: params.externalID !== undefined,
      expect: 'object',
    });
  }

  getWithdrawal(withdrawalId: string): Promise<Withdrawal> {
    return this.client.call({ operation: 'getWithdrawal', method: 'GET', path: `/wallet/v0/withdrawals/${seg(withdrawalId)}`, idempotent: true, expect: 'object' });
  }

  /** The withdrawal made under `externalID`: how a create refused for differing parameters (409) meets it. */
  getWithdrawalByExternalId(externalID: string): Promise<Withdrawal> {
    return this.client.call({
      operation: 'getWithdrawalByExternalId',
      method: 'GET',
      path: `/wallet/v0/external-ids/withdrawals/${seg(externalID)}`,
      idempotent: true,
      expect: 'object',
    });
  }

  getWithdrawalEvents(withdrawalId: string, query: WithdrawalEventsQuery): Promise<WithdrawalEvent[]> {
    return this.client.call({
      operation: 'getWithdrawalEvents',
      method: 'GET',
      path: `/wallet/v0/withdrawals/${seg(withdrawalId)}/events`,
      query: { limit: query.limit, eventCursor: query.eventCursor },
      idempotent: true,
      expect: 'array',
    });
  }

  /** The identity's wallet webhooks (the provider requires the identity). */
  listWalletWebhooks(identityId: string): Promise<WalletWebhook[]> {
    return this.client.call({
      operation: 'listWalletWebhooks',
      method: 'GET',
      path: '/wallet/v0/webhooks',
      query: { identityID: identityId },
      idempotent: true,
      expect: 'array',
    });
  }

  /** Registers a wallet webhook; no externalID exists here, so an unknown outcome is not retried (list to find out). */
  createWalletWebhook(params: WalletWebhookParams): Promise<WalletWebhook> {
    return this.client.call({ operation: 'createWalletWebhook', method: 'POST', path: '/wallet/v0/webhooks', body: params, idempotent: false, expect: 'object' });
  }

  /** Deletes a wallet webhook of this identity; a repeat that finds it gone after a lost answer counts as done. */
  async deleteWalletWebhook(identityId: string, webhookId: string): Promise<void> {
    await deleteTolerantOfReplay(() =>
      this.client.call<void>({
        operation: 'deleteWalletWebhook',
        method: 'DELETE',
        path: `/wallet/v0/webhooks/${seg(webhookId)}`,
        query: { identityID: identityId },
        idempotent: true,
        expect: 'none',
      }),
    );
  }
}
