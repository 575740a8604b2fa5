import { Injectable } from '@nestjs/common';
import { ProviderError } from '../http/provider-error';
import type { HtmlReply } from '../hosted-form/html-reply';
import { errorPage, formPage, resultPage } from '../hosted-form/hosted-form-pages';
import type { PaymentToolRecord } from '../state/sandbox-records';
import { SandboxStateService } from '../state/sandbox-state.service';
import { AccessTokensService } from './access-tokens.service';
import { RESULT_WAIT_MS } from './acs.service';
import { BindingsService } from './bindings.service';
import { CardVaultService } from './card-vault.service';
import { CustomersService } from './customers.service';

/**
 * The provider's hosted payment form: the payer enters a card and consents, and the binding starts exactly
 * as operation 3 starts it. Authorised by the customer access token alone, as in the spec's first flow.
 */
@Injectable()
export class HostedFormService {
  constructor(
    private readonly tokens: AccessTokensService,
    private readonly vault: CardVaultService,
    private readonly customers: CustomersService,
    private readonly bindings: BindingsService,
    private readonly store: SandboxStateService,
  ) {}

  show(customerID: unknown, customerAccessToken: unknown): HtmlReply {
    if (typeof customerID === 'string' && (customerAccessToken === undefined || customerAccessToken === '')) return tokenMissing();
    const access = this.authorized(customerID, customerAccessToken);
    if (!access) return unauthorized();
    return { status: 200, html: formPage(access.customerID, access.token) };
  }

  async submit(fields: Record<string, unknown>, clientIp: string): Promise<HtmlReply> {
    const access = this.authorized(fields.customerID, fields.customerAccessToken);
    const customer = access ? this.customers.find(access.customerID) : undefined;
    if (!access || !customer) return unauthorized();
    const { customerID, token: customerAccessToken } = access;
    const text = (name: string): string => (typeof fields[name] === 'string' ? (fields[name] as string).trim() : '');
    if (text('consent') === '') {
      return { status: 400, html: formPage(customerID, customerAccessToken, 'Please accept the terms of recurring charges.') };
    }
    let tool: PaymentToolRecord;
    try {
      tool = this.vault.tokenizeCardData(
        {
          cardNumber: text('cardNumber').replace(/[\s-]/g, ''),
          expDate: text('expDate'),
          cvv: text('cvv') || undefined,
          cardHolder: text('cardHolder') || undefined,
        },
        { fingerprint: 'sandbox-hosted-form', ip: clientIp },
      );
    } catch (e) {
      if (!(e instanceof ProviderError)) throw e;
      const message = (e.body as { message?: string } | undefined)?.message ?? 'Card data is invalid';
      return { status: 400, html: formPage(customerID, customerAccessToken, message) };
    }
    const started = this.bindings.start(customer, tool);
    this.store.changed();
    if (started.interaction) {
      // The card's issuer asks for 3-D Secure: the payer goes on to its page, as any redirect of the provider says.
      const query = new URLSearchParams({ MD: started.binding.id, PaReq: started.interaction.secret });
      return { status: 303, location: `/sandbox/acs?${query.toString()}`, html: resultPage('pending', { bindingID: started.binding.id, lastDigits: tool.card.lastDigits }) };
    }

    const current = ((await this.bindings.settled(started.binding.id, RESULT_WAIT_MS)) ?? started).binding;
    return {
      status: 200,
      html: resultPage(current.status, { bindingID: current.id, lastDigits: tool.card.lastDigits, message: current.error?.message }),
    };
  }

  /** The customer and its live access token, or undefined when the pair does not authorise the form. */
  private authorized(customerID: unknown, token: unknown): { customerID: string; token: string } | undefined {
    if (typeof customerID !== 'string' || typeof token !== 'string' || !this.tokens.isCustomerToken(token, customerID)) return undefined;
    return { customerID, token };
  }
}

/** A link as shown outside the answer that issued its token: say what to add rather than just refuse. */
function tokenMissing(): HtmlReply {
  return {
    status: 401,
    html: errorPage(
      'Access token needed',
      'This link names the customer but carries no customer access token. Add &customerAccessToken=… with a token the merchant issued for this customer (a new one can be issued at any time).',
    ),
  };
}

function unauthorized(): HtmlReply {
  return { status: 401, html: errorPage('Not authorised', 'This link is not valid or has expired. Ask the merchant for a new one.') };
}
