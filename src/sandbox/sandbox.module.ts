import { DynamicModule, Module } from '@nestjs/common';
import { AcsController } from './controllers/acs.controller';
import { ControlController } from './controllers/control.controller';
import { HostedFormController } from './controllers/hosted-form.controller';
import { PaymentResourcesController } from './controllers/payment-resources.controller';
import { PayresController } from './controllers/payres.controller';
import { ProcessingCustomersController } from './controllers/processing-customers.controller';
import { ProcessingInvoicesController } from './controllers/processing-invoices.controller';
import { ProcessingRefundsController } from './controllers/processing-refunds.controller';
import { ProcessingWebhooksController } from './controllers/processing-webhooks.controller';
import { WalletWebhooksController } from './controllers/wallet-webhooks.controller';
import { WebhookControlController } from './controllers/webhook-control.controller';
import { WalletController } from './controllers/wallet.controller';
import { ProviderExchange } from './http/provider-exchange.service';
import { SandboxConfig } from './sandbox-config';
import { AccessTokensService } from './services/access-tokens.service';
import { AcsService } from './services/acs.service';
import { BindingsService } from './services/bindings.service';
import { CardVaultService } from './services/card-vault.service';
import { CustomersService } from './services/customers.service';
import { FaultsService } from './services/faults.service';
import { HostedFormService } from './services/hosted-form.service';
import { IdempotencyService } from './services/idempotency.service';
import { InvoicesService } from './services/invoices.service';
import { LedgerService } from './services/ledger.service';
import { OutcomeScriptService } from './services/outcome-script.service';
import { PaymentsService } from './services/payments.service';
import { PayoutsService } from './services/payouts.service';
import { RefundsService } from './services/refunds.service';
import { RequestLogService } from './services/request-log.service';
import { SandboxControlService } from './services/sandbox-control.service';
import { SandboxPersistenceService } from './services/sandbox-persistence.service';
import { SandboxScheduler } from './services/sandbox-scheduler.service';
import { WalletWebhooksService } from './services/wallet-webhooks.service';
import { WalletService } from './services/wallet.service';
import { WebhookDeliveryService } from './services/webhook-delivery.service';
import { WebhookEventsService } from './services/webhook-events.service';
import { WebhookKeysService } from './services/webhook-keys.service';
import { WebhooksService } from './services/webhooks.service';
import { SandboxStateService } from './state/sandbox-state.service';

/** The provider simulator: its own Nest application, separate from the daemon's AppModule. */
@Module({})
export class SandboxModule {
  static forRoot(config: SandboxConfig): DynamicModule {
    return {
      module: SandboxModule,
      controllers: [
        ProcessingCustomersController,
        ProcessingInvoicesController,
        ProcessingRefundsController,
        PaymentResourcesController,
        WalletController,
        PayresController,
        ControlController,
        HostedFormController,
        AcsController,
        ProcessingWebhooksController,
        WalletWebhooksController,
        WebhookControlController,
      ],
      providers: [
        { provide: SandboxConfig, useValue: config },
        SandboxStateService,
        SandboxPersistenceService,
        SandboxScheduler,
        ProviderExchange,
        AccessTokensService,
        IdempotencyService,
        FaultsService,
        RequestLogService,
        OutcomeScriptService,
        CardVaultService,
        BindingsService,
        CustomersService,
        InvoicesService,
        PaymentsService,
        RefundsService,
        WalletService,
        PayoutsService,
        LedgerService,
        HostedFormService,
        AcsService,
        SandboxControlService,
        WebhookKeysService,
        WebhookDeliveryService,
        WebhookEventsService,
        WebhooksService,
        WalletWebhooksService,
      ],
    };
  }
}
