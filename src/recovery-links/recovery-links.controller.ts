import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { ApiAdminRoute } from '../common/api-docs/api-route.decorators';
import { RequiresScope } from '../common/auth/requires-scope.decorator';
import { EmptyBodyDto } from '../common/http/empty-body.dto';
import { UUID_PARAM } from '../common/http/uuid-param.pipe';
import { RecoveryLinkResponseDto } from './recovery-link-response.dto';
import type { MintedRecoveryLink } from './recovery-links.service';
import { RecoveryPagesService } from './recovery-pages.service';

@ApiTags('Charges')
@Controller('api/v1')
export class RecoveryLinksController {
  constructor(private readonly pages: RecoveryPagesService) {}

  @ApiAdminRoute({
    summary: 'Mint a recovery link for a declined charge',
    description:
      "A fresh link to the page where the charge's customer binds a new card (the charge's earlier links stop working). The link names this charge and its customer only and lives RECOVERY_LINK_TTL. The daemon also mints one by itself with `charge.action_required`.",
    id: 'charge',
    body: true,
    idempotent: true,
    errors: ['charge_already_paid', 'charge_not_recoverable', 'recovery_links_unavailable'],
  })
  @ApiBody({ type: EmptyBodyDto, required: false })
  @ApiOkResponse({ type: RecoveryLinkResponseDto })
  @RequiresScope('charges:write')
  @Post('charges/:id/recovery-link')
  @HttpCode(200)
  mint(@Param('id', UUID_PARAM) id: string, @Body() _body: EmptyBodyDto): Promise<MintedRecoveryLink> {
    return this.pages.mintForCharge(id);
  }
}
