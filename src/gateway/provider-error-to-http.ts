import { BadGatewayException, ConflictException, GatewayTimeoutException, HttpException, ServiceUnavailableException, UnprocessableEntityException } from '@nestjs/common';
import { withErrorCode } from '../common/errors/coded-error';
import type { ProviderError } from './provider-error';

/**
 * The one answer of the admin API for a provider call that failed while serving a request (customers, bindings,
 * payout setup and destinations alike). `action` says what the request tried ("create the customer"); `field`
 * names the request field a refusal is about, when one is. Only the provider's own code and message are passed on
 * (ProviderError never carries credentials, tokens or card data).
 *
 * - refused (invalid request, business rule, not found) → 422 `provider_refused`, with `providerCode`
 * - externalID in use with other parameters → 409 `provider_conflict`
 * - not executed (unavailable, queue full) → 503 `provider_unavailable`: nothing was done
 * - unknown outcome (timeout, 5xx, reset) → 504 `provider_timeout`: repeating the same request is safe, unless the
 *   caller says what to do instead (`ifUnknown`: a create whose input is spent, such as a card token)
 * - the daemon's credentials refused, anything unexpected → 502 `provider_error`
 */
export function httpErrorForProvider(error: ProviderError, action: string, field?: string, ifUnknown = 'Repeating the same request is safe.'): HttpException {
  const detail = [error.code, error.providerMessage].filter((p) => p !== undefined && p !== '').join(': ');
  const suffix = detail === '' ? '' : ` (${detail})`;
  switch (error.kind) {
    case 'invalid_request':
    case 'business_rule':
    case 'not_found':
      // The input passed our checks but the provider refused it: a business rule, not malformed input.
      return withErrorCode(
        new UnprocessableEntityException({
          statusCode: 422,
          error: 'Unprocessable Entity',
          message: field ? [`${field}: the provider refused it${suffix}`] : `The provider refused to ${action}${suffix}`,
          providerCode: error.code ?? null,
        }),
        'provider_refused',
        { field },
      );
    case 'conflict':
      return withErrorCode(
        new ConflictException(`The provider refused to ${action}: its externalID${error.externalID ? ` ${error.externalID}` : ''} is already in use with other parameters${suffix}`),
        'provider_conflict',
      );
    case 'not_executed':
      return withErrorCode(
        new ServiceUnavailableException(`The provider is unavailable, nothing was done; try again later (could not ${action})`),
        'provider_unavailable',
      );
    case 'unknown_outcome':
      return new GatewayTimeoutException(`The provider did not answer in time; whether it managed to ${action} is unknown. ${ifUnknown}`);
    case 'unauthorized':
      return new BadGatewayException(`The provider refused the daemon's credentials; check PROVIDER_API_KEY (could not ${action})`);
    default:
      return new BadGatewayException(`The provider answered unexpectedly; could not ${action} (${error.operation} failed: ${error.kind})`);
  }
}
