import { Controller, Get, Param } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { ApiAdminRoute } from '../common/api-docs/api-route.decorators';
import { UUID_PARAM } from '../common/http/uuid-param.pipe';
import { ChargeDunningResponseDto } from './charge-dunning-response.dto';
import { ChargeDunningService } from './charge-dunning.service';
import { RequiresScope } from '../common/auth/requires-scope.decorator';

@ApiTags('Charges')
@Controller('api/v1/charges')
export class ChargeDunningController {
  constructor(private readonly dunning: ChargeDunningService) {}

  @ApiAdminRoute({
    summary: "How a charge is being collected",
    description: "Every attempt with the provider's code and its class (hard, soft, technical), attempt n of N under the ladder that applies, the next attempt and when collection gives up.",
    id: 'charge',
  })
  @ApiOkResponse({ type: ChargeDunningResponseDto })
  @RequiresScope('charges:read')
  @Get(':id/dunning')
  get(@Param('id', UUID_PARAM) id: string) {
    return this.dunning.of(id);
  }
}
