import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiBody, ApiCreatedResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { ApiAdminRoute, ApiPageResponse } from '../common/api-docs/api-route.decorators';
import { EmptyBodyDto } from '../common/http/empty-body.dto';
import { ListQueryDto } from '../common/http/list-query.dto';
import { ReservedId } from '../common/http/reserved-id.decorator';
import { UUID_PARAM } from '../common/http/uuid-param.pipe';
import { CreateWebhookEndpointDto } from './dto/create-webhook-endpoint.dto';
import { CreatedWebhookEndpointResponseDto } from './dto/created-webhook-endpoint-response.dto';
import { DeletedWebhookEndpointResponseDto } from './dto/deleted-webhook-endpoint-response.dto';
import { ListWebhookAttemptsQueryDto } from './dto/list-webhook-attempts-query.dto';
import { UpdateWebhookEndpointDto } from './dto/update-webhook-endpoint.dto';
import { WebhookAttemptResponseDto } from './dto/webhook-attempt-response.dto';
import { WebhookEndpointResponseDto } from './dto/webhook-endpoint-response.dto';
import { WebhookEndpointsService } from './webhook-endpoints.service';
import { toCreatedWebhookEndpointResponse, toWebhookAttemptResponse, toWebhookEndpointResponse } from './webhook-responses';
import { RequiresScope } from '../common/auth/requires-scope.decorator';

@ApiTags('Events and webhooks')
@Controller('api/v1/webhook-endpoints')
export class WebhookEndpointsController {
  constructor(private readonly endpoints: WebhookEndpointsService) {}

  @ApiAdminRoute({
    summary: 'Add a webhook endpoint',
    description: 'Events are POSTed to it, signed per Standard Webhooks with the secret this answer shows once.',
    body: true,
    idempotent: true,
  })
  @ApiCreatedResponse({ type: CreatedWebhookEndpointResponseDto })
  @RequiresScope('webhooks:write')
  @Post()
  async create(@Body() dto: CreateWebhookEndpointDto, @ReservedId() reservedId?: string) {
    const { endpoint, secret } = await this.endpoints.create(dto, reservedId);
    return toCreatedWebhookEndpointResponse(endpoint, secret);
  }

  @ApiAdminRoute({ summary: 'List webhook endpoints', errors: ['validation_failed'] })
  @ApiPageResponse(WebhookEndpointResponseDto)
  @RequiresScope('webhooks:read')
  @Get()
  async list(@Query() query: ListQueryDto) {
    const page = await this.endpoints.list(query);
    return { items: page.items.map(toWebhookEndpointResponse), nextCursor: page.nextCursor };
  }

  @ApiAdminRoute({ summary: 'Read a webhook endpoint', description: 'Never its secret.', id: 'webhook endpoint' })
  @ApiOkResponse({ type: WebhookEndpointResponseDto })
  @RequiresScope('webhooks:read')
  @Get(':id')
  async get(@Param('id', UUID_PARAM) id: string) {
    return toWebhookEndpointResponse(await this.endpoints.get(id));
  }

  @ApiAdminRoute({ summary: 'Change a webhook endpoint', description: 'Only the fields given change.', id: 'webhook endpoint', body: true })
  @ApiOkResponse({ type: WebhookEndpointResponseDto })
  @RequiresScope('webhooks:write')
  @Patch(':id')
  async update(@Param('id', UUID_PARAM) id: string, @Body() dto: UpdateWebhookEndpointDto) {
    return toWebhookEndpointResponse(await this.endpoints.update(id, dto));
  }

  @ApiAdminRoute({ summary: 'Delete a webhook endpoint', description: 'Nothing more is sent to it; deliveries still queued for it are dropped.', id: 'webhook endpoint' })
  @ApiOkResponse({ type: DeletedWebhookEndpointResponseDto })
  @RequiresScope('webhooks:write')
  @Delete(':id')
  async remove(@Param('id', UUID_PARAM) id: string) {
    await this.endpoints.remove(id);
    return { id, deleted: true };
  }

  @ApiAdminRoute({
    summary: "Rotate a webhook endpoint's secret",
    description: 'Answers the new secret once; deliveries are signed with the old one too for 24 hours, so receivers can switch without a gap.',
    id: 'webhook endpoint',
    body: true,
    idempotent: true,
  })
  @ApiBody({ type: EmptyBodyDto, required: false })
  @ApiOkResponse({ type: CreatedWebhookEndpointResponseDto })
  @RequiresScope('webhooks:write')
  @Post(':id/rotate-secret')
  @HttpCode(200)
  async rotateSecret(@Param('id', UUID_PARAM) id: string, @Body() _body: EmptyBodyDto) {
    const { endpoint, secret } = await this.endpoints.rotateSecret(id);
    return toCreatedWebhookEndpointResponse(endpoint, secret);
  }

  @ApiAdminRoute({
    summary: "A webhook endpoint's delivery attempts",
    description: 'Every attempt to send it an event, newest first: its outcome, the status answered, how long it took, and why it failed.',
    id: 'webhook endpoint',
    errors: ['validation_failed'],
  })
  @ApiPageResponse(WebhookAttemptResponseDto)
  @RequiresScope('webhooks:read')
  @Get(':id/deliveries')
  async deliveries(@Param('id', UUID_PARAM) id: string, @Query() query: ListWebhookAttemptsQueryDto) {
    const page = await this.endpoints.attempts(id, query);
    return { items: page.items.map((a) => toWebhookAttemptResponse(a.attempt, a.eventType)), nextCursor: page.nextCursor };
  }
}
