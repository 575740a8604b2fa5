import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { EmptyBodyDto } from '../common/http/empty-body.dto';
import { ListQueryDto } from '../common/http/list-query.dto';
import { UUID_PARAM } from '../common/http/uuid-param.pipe';
import { CreateWebhookEndpointDto } from './dto/create-webhook-endpoint.dto';
import { ListWebhookAttemptsQueryDto } from './dto/list-webhook-attempts-query.dto';
import { UpdateWebhookEndpointDto } from './dto/update-webhook-endpoint.dto';
import { WebhookEndpointsService } from './webhook-endpoints.service';
import { toCreatedWebhookEndpointResponse, toWebhookAttemptResponse, toWebhookEndpointResponse } from './webhook-responses';

@Controller('api/v1/webhook-endpoints')
export class WebhookEndpointsController {
  constructor(private readonly endpoints: WebhookEndpointsService) {}

  @Post()
  async create(@Body() dto: CreateWebhookEndpointDto) {
    const { endpoint, secret } = await this.endpoints.create(dto);
    return toCreatedWebhookEndpointResponse(endpoint, secret);
  }

  @Get()
  async list(@Query() query: ListQueryDto) {
    const page = await this.endpoints.list(query);
    return { items: page.items.map(toWebhookEndpointResponse), nextCursor: page.nextCursor };
  }

  @Get(':id')
  async get(@Param('id', UUID_PARAM) id: string) {
    return toWebhookEndpointResponse(await this.endpoints.get(id));
  }

  @Patch(':id')
  async update(@Param('id', UUID_PARAM) id: string, @Body() dto: UpdateWebhookEndpointDto) {
    return toWebhookEndpointResponse(await this.endpoints.update(id, dto));
  }

  @Delete(':id')
  @HttpCode(204)
  async remove(@Param('id', UUID_PARAM) id: string): Promise<void> {
    await this.endpoints.remove(id);
  }

  @Post(':id/rotate-secret')
  @HttpCode(200)
  async rotateSecret(@Param('id', UUID_PARAM) id: string, @Body() _body: EmptyBodyDto) {
    const { endpoint, secret } = await this.endpoints.rotateSecret(id);
    return toCreatedWebhookEndpointResponse(endpoint, secret);
  }

  @Get(':id/deliveries')
  async deliveries(@Param('id', UUID_PARAM) id: string, @Query() query: ListWebhookAttemptsQueryDto) {
    const page = await this.endpoints.attempts(id, query);
    return { items: page.items.map(toWebhookAttemptResponse), nextCursor: page.nextCursor };
  }
}
