import { Body, Controller, Get, HttpCode, HttpStatus, Param, Post, Query, Res } from '@nestjs/common';
import { ApiAcceptedResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { ApiAdminRoute, ApiPageResponse } from '../common/api-docs/api-route.decorators';
import { Page } from '../common/http/pagination';
import { ReservedId } from '../common/http/reserved-id.decorator';
import { UUID_PARAM } from '../common/http/uuid-param.pipe';
import { CreateRefundDto } from './create-refund.dto';
import { ListRefundsQueryDto } from './list-refunds-query.dto';
import { RefundResponse, toRefundResponse } from './refund-response';
import { RefundResponseDto } from './refund-response.dto';
import { RefundsService } from './refunds.service';
import { RequiresScope } from '../common/auth/requires-scope.decorator';

@ApiTags('Refunds')
@Controller('api/v1')
export class RefundsController {
  constructor(private readonly refunds: RefundsService) {}

  /** 202: accepted (a balance refund is made already); 200: its reference already names this very refund. */
  @ApiAdminRoute({
    summary: 'Refund a charge, to its card or to the credit balance',
    description:
      "Only a succeeded charge; partial and repeated refunds up to what was paid, the part the credit balance paid only back to the balance. `to: card` is made at the provider in the background (follow it with GET, or the `refund.succeeded` / `refund.failed` events); a charge's card refunds go one at a time, in order. `to: balance` is made at once.",
    id: 'charge',
    body: true,
    idempotent: true,
    errors: ['charge_not_refundable', 'refund_exceeds_charge', 'refund_reference_taken'],
  })
  @ApiAcceptedResponse({ type: RefundResponseDto })
  @ApiOkResponse({ type: RefundResponseDto, description: 'The `reference` already names this refund, asked for with the same request: it is answered as it is now.' })
  @RequiresScope('charges:write')
  @Post('charges/:id/refunds')
  @HttpCode(HttpStatus.ACCEPTED)
  async create(
    @Param('id', UUID_PARAM) chargeId: string,
    @Body() body: CreateRefundDto,
    @Res({ passthrough: true }) res: Response,
    @ReservedId() reservedId?: string,
  ): Promise<RefundResponse> {
    const { refund, created } = await this.refunds.create(chargeId, body, reservedId);
    if (!created) res.status(HttpStatus.OK);
    return toRefundResponse(refund);
  }

  @ApiAdminRoute({ summary: 'List refunds', errors: ['validation_failed'] })
  @ApiPageResponse(RefundResponseDto)
  @RequiresScope('charges:read')
  @Get('refunds')
  async list(@Query() query: ListRefundsQueryDto): Promise<Page<RefundResponse>> {
    const page = await this.refunds.list(query);
    return { items: page.items.map(toRefundResponse), nextCursor: page.nextCursor };
  }

  @ApiAdminRoute({ summary: 'Read a refund', id: 'refund' })
  @ApiOkResponse({ type: RefundResponseDto })
  @RequiresScope('charges:read')
  @Get('refunds/:id')
  async get(@Param('id', UUID_PARAM) id: string): Promise<RefundResponse> {
    return toRefundResponse(await this.refunds.get(id));
  }
}
