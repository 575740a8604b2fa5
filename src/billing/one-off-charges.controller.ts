import { Body, Controller, HttpCode, HttpStatus, Param, Post, Res } from '@nestjs/common';
import { ApiAcceptedResponse, ApiCreatedResponse, ApiExtraModels, ApiOkResponse, ApiTags, getSchemaPath } from '@nestjs/swagger';
import type { Response } from 'express';
import { ApiAdminRoute } from '../common/api-docs/api-route.decorators';
import { ReservedId } from '../common/http/reserved-id.decorator';
import { UUID_PARAM } from '../common/http/uuid-param.pipe';
import { toPendingItemResponse } from '../pending-items/pending-item-response';
import { PendingItemResponseDto } from '../pending-items/pending-item-response.dto';
import { toChargeResponse } from './charge-response';
import { ChargeResponseDto } from './charge-response.dto';
import { CreateOneOffChargeDto } from './create-one-off-charge.dto';
import { OneOffChargesService } from './one-off-charges.service';
import { RequiresScope } from '../common/auth/requires-scope.decorator';

@ApiTags('Charges')
@Controller('api/v1/customers')
export class OneOffChargesController {
  constructor(private readonly oneOffs: OneOffChargesService) {}

  /** 202: a one-off charge (`now`), worked at once; 201: a pending item (`next_renewal`); 200: the reference names this very one. */
  @ApiAdminRoute({
    summary: "Charge the customer's card outside the schedule",
    description:
      "`when: now` (the default) makes a charge of kind `one_off` with these lines and works it at once, in this request, through the same engine as every charge (invoice, `CustomerPayer` payment on the customer's card, the customer's credit balance applied first): 202 with the charge, usually settled already (`processing` while the provider decides; follow it with GET). A decline ends it `failed` with its code: no dunning, no change to any subscription; it can be retried by hand. 409 `customer_not_ready` while the customer has no card. `when: next_renewal` (with `subscriptionId`) answers 201 a pending item that the subscription's next period charge carries as extra cart lines. A `reference`, or the Idempotency-Key, makes a repeat answer what the first request made.",
    id: 'customer',
    body: true,
    idempotent: true,
    errors: ['business_rule', 'state_conflict', 'customer_not_ready', 'charge_reference_taken'],
  })
  @ApiExtraModels(ChargeResponseDto, PendingItemResponseDto)
  @ApiAcceptedResponse({ type: ChargeResponseDto, description: 'The one-off charge (`when: now`), as it stands once worked in this request.' })
  @ApiCreatedResponse({ type: PendingItemResponseDto, description: 'The pending item (`when: next_renewal`).' })
  @ApiOkResponse({
    description: 'The `reference` already names this charge or pending item, made with the same body: it is answered as it is now.',
    schema: { oneOf: [{ $ref: getSchemaPath(ChargeResponseDto) }, { $ref: getSchemaPath(PendingItemResponseDto) }] },
  })
  @RequiresScope('charges:write')
  @Post(':id/charges')
  @HttpCode(HttpStatus.ACCEPTED)
  async create(@Param('id', UUID_PARAM) id: string, @Body() dto: CreateOneOffChargeDto, @Res({ passthrough: true }) res: Response, @ReservedId() reservedId?: string) {
    const result = await this.oneOffs.create(id, dto, reservedId);
    if (!result.created) res.status(HttpStatus.OK);
    if ('item' in result) {
      if (result.created) res.status(HttpStatus.CREATED);
      return toPendingItemResponse(result.item);
    }
    return toChargeResponse(result.charge, result.attempts);
  }
}
