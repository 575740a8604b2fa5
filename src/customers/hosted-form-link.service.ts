import { Injectable } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { RuntimeSettings } from '../config/runtime-settings';

/**
 * Links to the built-in sandbox's hosted binding form. The form is authorised by a customer access token, which
 * the daemon hands out once and never keeps: a link with the token exists only in the answer that issued the
 * token (create, access-token); everywhere else the link carries the customer alone, and the merchant adds
 * `&customerAccessToken=…`. With a real provider (PROVIDER_URL) there is no such link: the provider's own form
 * takes the token.
 */
@Injectable()
export class HostedFormLinkService {
  constructor(
    private readonly config: AppConfig,
    private readonly runtime: RuntimeSettings,
  ) {}

  /** The form for this provider customer, with the token when given; undefined with a real provider. */
  link(providerCustomerId: string, customerAccessToken?: string): string | undefined {
    if (!this.config.usesSandbox) return undefined;
    const url = new URL('/sandbox/hosted-form', this.runtime.providerBaseUrl);
    url.searchParams.set('customerID', providerCustomerId);
    if (customerAccessToken !== undefined) url.searchParams.set('customerAccessToken', customerAccessToken);
    return url.toString();
  }
}
