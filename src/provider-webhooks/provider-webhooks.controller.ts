import { Controller, Headers, HttpCode, Post, Req } from '@nestjs/common';
import { ApiBody, ApiHeader, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { ApiPublicRoute } from '../common/api-docs/api-route.decorators';
import { PublicRoute } from '../common/http/public-route.decorator';
import { ProviderEventIntakeService } from './provider-event-intake.service';
import { ProviderWebhookReceiptDto } from './provider-webhook-receipt.dto';

/**
 * Where the provider pushes its events. No admin token: a delivery is accepted only with a Content-Signature
 * that verifies over the exact body with a key the provider gave at registration.
 */
@ApiTags('Provider webhooks')
@Controller('webhooks')
export class ProviderWebhooksController {
  constructor(private readonly intake: ProviderEventIntakeService) {}

  @PublicRoute()
  @ApiPublicRoute({
    summary: "The provider's signed events",
    description:
      'Called by the payment provider, not by merchants. The event is stored once and applied by the daemon\'s work engine; ' +
      'a repeat of one event is answered 200 and changes nothing. Unsigned, forged or unknown-key deliveries change nothing.',
    errors: ['unauthorized', 'malformed_request', 'payload_too_large', 'unsupported_media_type'],
  })
  @ApiBody({
    description: "One event of the provider's webhooks, as it sends it (signed over these exact bytes).",
    schema: { type: 'object', additionalProperties: true },
    examples: {
      PaymentCaptured: {
        summary: 'A payment was captured',
        value: { eventID: 2006462, occuredAt: '2027-01-31T00:00:01.505Z', topic: 'InvoicesTopic', eventType: 'PaymentCaptured', invoice: { id: 'u7wzxUVbZg' }, payment: { id: '1', status: 'captured' } },
      },
    },
  })
  @ApiHeader({ name: 'Content-Signature', required: true, description: '`alg=RS256; digest=<URL-safe base64 signature of the exact body>`' })
  @ApiOkResponse({ type: ProviderWebhookReceiptDto, example: { received: true, duplicate: false } })
  @Post('provider')
  @HttpCode(200)
  async receive(
    @Req() request: Request & { rawBody?: Buffer },
    @Headers('content-signature') signature?: string,
    @Headers('content-type') contentType?: string,
  ): Promise<{ received: true; duplicate: boolean }> {
    const { duplicate } = await this.intake.receive(request.rawBody, signature, contentType);
    return { received: true, duplicate };
  }
}
