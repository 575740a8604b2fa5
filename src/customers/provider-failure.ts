import { BadGatewayException, ConflictException, GatewayTimeoutException, HttpException, ServiceUnavailableException, UnprocessableEntityException } from '@nestjs/common';
import type { ProviderError } from '../gateway/provider-error';
import { withErrorCode } from '../common/errors/coded-error';

/**
 * The admin API answer for a provider call that failed while serving a request. Only the provider's own code and
 * message are passed on (ProviderError never carries credentials, tokens or card data).
 */
export function httpErrorForProvider(error: ProviderError, action: string): HttpException {
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
          message: `The provider refused to ${action}${suffix}`,
          providerCode: error.code ?? null,
        }),
        'provider_refused',
      );
    case 'conflict':
      return withErrorCode(new ConflictException(`The provider refused to ${action}: its externalID is already in use${suffix}`), 'provider_conflict');
    case 'not_executed':
      return withErrorCode(
        new ServiceUnavailableException(`The provider is unavailable, nothing was done; try again later (could not ${action})`),
        'provider_unavailable',
      );
    case 'unknown_outcome':
      return new GatewayTimeoutException(`The provider did not answer in time; whether it managed to ${action} is unknown`);
    case 'unauthorized':
      return new BadGatewayException(`The provider refused the daemon's credentials; check PROVIDER_API_KEY (could not ${action})`);
    default:
      return new BadGatewayException(`The provider answered unexpectedly; could not ${action}`);
  }
}
