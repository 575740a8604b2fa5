import { Controller, Delete, Get, Param, Query } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { ApiAdminRoute, ApiPageResponse } from '../common/api-docs/api-route.decorators';
import { ListQueryDto } from '../common/http/list-query.dto';
import { UUID_PARAM } from '../common/http/uuid-param.pipe';
import { ListPendingItemsQueryDto } from './list-pending-items-query.dto';
import { toPendingItemResponse } from './pending-item-response';
import { PendingItemResponseDto } from './pending-item-response.dto';
import { PendingItemsService } from './pending-items.service';
import { RequiresScope } from '../common/auth/requires-scope.decorator';

/** A subscription's pending items; they are made with `POST /customers/{id}/charges` (`when: next_renewal`). */
@ApiTags('Charges')
@Controller('api/v1')
export class PendingItemsController {
  constructor(private readonly items: PendingItemsService) {}

  @ApiAdminRoute({
    summary: "A subscription's pending items",
    description: 'Every item, newest first, whatever its status: pending (the next period charge carries it), billed (with its `chargeId`) or canceled.',
    id: 'subscription',
  })
  @ApiPageResponse(PendingItemResponseDto)
  @ApiTags('Subscriptions')
  @RequiresScope('charges:read')
  @Get('subscriptions/:id/pending-items')
  async list(@Param('id', UUID_PARAM) id: string, @Query() query: ListQueryDto) {
    const page = await this.items.list(id, query);
    return { items: page.items.map(toPendingItemResponse), nextCursor: page.nextCursor };
  }

  @ApiAdminRoute({
    summary: "A customer's pending items",
    description: 'Every item of all their subscriptions, newest first; `status=pending` gives those the next renewals will carry.',
    id: 'customer',
    errors: ['validation_failed'],
  })
  @ApiPageResponse(PendingItemResponseDto)
  @ApiTags('Customers')
  @RequiresScope('charges:read')
  @Get('customers/:id/pending-items')
  async listOfCustomer(@Param('id', UUID_PARAM) id: string, @Query() query: ListPendingItemsQueryDto) {
    const page = await this.items.listOfCustomer(id, query);
    return { items: page.items.map(toPendingItemResponse), nextCursor: page.nextCursor };
  }

  @ApiAdminRoute({ summary: 'Read a pending item', id: 'pending item' })
  @ApiOkResponse({ type: PendingItemResponseDto })
  @RequiresScope('charges:read')
  @Get('pending-items/:id')
  async get(@Param('id', UUID_PARAM) id: string) {
    return toPendingItemResponse(await this.items.get(id));
  }

  @ApiAdminRoute({
    summary: 'Drop a pending item',
    description:
      'The item is not billed: it is answered `canceled`; one dropped already is answered as it is. 409 `state_conflict` when it is billed already (its `chargeId` names the charge): a billing pass that was billing it at that moment finishes first.',
    id: 'pending item',
    errors: ['state_conflict'],
  })
  @ApiOkResponse({ type: PendingItemResponseDto })
  @RequiresScope('charges:write')
  @Delete('pending-items/:id')
  async drop(@Param('id', UUID_PARAM) id: string) {
    return toPendingItemResponse(await this.items.drop(id));
  }
}
