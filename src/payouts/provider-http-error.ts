import { BadGatewayException, ConflictException, HttpException, ServiceUnavailableException, UnprocessableEntityException } from '@nestjs/common';
import { ProviderError } from '../gateway/provider-error';
import { withErrorCode } from '../common/errors/coded-error';

/**
 * What an admin request answers when a provider call it made failed. Provider messages are already redacted
 * by ProviderError; `field` names the request field a refusal is about.
 */
export function httpErrorFromProvider(error: ProviderError, field: string): HttpException {
  switch (error.kind) {
    case 'business_rule':
    case 'invalid_request':
    case 'not_found':
      return withErrorCode(
        new UnprocessableEntityException([`${field}: the provider refused it${error.providerMessage ? ` (${error.providerMessage})` : ''}`]),
        'provider_refused',
      );
    case 'conflict':
      return withErrorCode(new ConflictException(`The provider already holds ${error.externalID ?? 'this externalID'} with other parameters`), 'provider_conflict');
    case 'not_executed':
      return withErrorCode(new ServiceUnavailableException('The provider is unavailable; nothing was done. Retry later.'), 'provider_unavailable');
    case 'unknown_outcome':
      return new BadGatewayException('The provider did not answer in time; repeating the same request is safe.');
    default:
      return new BadGatewayException(`The provider call ${error.operation} failed (${error.kind}); see the daemon log.`);
  }
}
