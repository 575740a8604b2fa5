import { Body, Controller, Delete, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { ApiAdminRoute } from '../common/api-docs/api-route.decorators';
import { ReservedId } from '../common/http/reserved-id.decorator';
import { UUID_PARAM } from '../common/http/uuid-param.pipe';
import { SubscriptionResponseDto } from '../subscriptions/dto/subscription-response.dto';
import { ChangeFiguresDto, ChangeResultDto } from './dto/change-figures-response.dto';
import { ChangeSubscriptionDto } from './dto/change-subscription.dto';
import { SubscriptionChangesService } from './subscription-changes.service';
import { RequiresScope } from '../common/auth/requires-scope.decorator';

@ApiTags('Subscriptions')
@Controller('api/v1/subscriptions')
export class SubscriptionChangesController {
  constructor(private readonly changes: SubscriptionChangesService) {}

  @ApiAdminRoute({
    summary: 'Change plan or quantity',
    description:
      'An upgrade applies now with a prorated charge, a downgrade at the period end, unless `effective` says otherwise; another interval starts a new period now. Allowed for active and trialing subscriptions; priced on the period in force, so refused (409) while a charge is in flight or while billing is behind (its next period begun and not billed yet).',
    id: 'subscription',
    body: true,
    idempotent: true,
    errors: ['not_found', 'business_rule', 'subscription_not_changeable', 'state_conflict'],
  })
  @ApiOkResponse({ type: ChangeResultDto })
  @RequiresScope('subscriptions:write')
  @Post(':id/change')
  @HttpCode(200)
  change(@Param('id', UUID_PARAM) id: string, @Body() dto: ChangeSubscriptionDto, @ReservedId() actionId?: string) {
    return this.changes.change(id, dto, actionId);
  }

  @ApiAdminRoute({
    summary: 'Preview a change of plan or quantity',
    description: 'What the same change would cost now: the figures (or the refusal) a change with this body answers at this clock. Changes nothing.',
    id: 'subscription',
    body: true,
    idempotent: true,
    errors: ['not_found', 'business_rule', 'subscription_not_changeable', 'state_conflict'],
  })
  @ApiOkResponse({ type: ChangeFiguresDto })
  @RequiresScope('subscriptions:read')
  @Post(':id/change/preview')
  @HttpCode(200)
  preview(@Param('id', UUID_PARAM) id: string, @Body() dto: ChangeSubscriptionDto) {
    return this.changes.preview(id, dto);
  }

  @ApiAdminRoute({ summary: 'Drop a pending change', description: 'The change set for the period end is dropped; without one, nothing changes.', id: 'subscription', idempotent: true })
  @ApiOkResponse({ type: SubscriptionResponseDto })
  @RequiresScope('subscriptions:write')
  @Delete(':id/change')
  dropPending(@Param('id', UUID_PARAM) id: string) {
    return this.changes.dropPending(id);
  }
}
