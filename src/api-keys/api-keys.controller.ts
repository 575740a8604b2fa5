import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { Credential } from '../common/auth/actor';
import { CurrentCredential } from '../common/auth/current-credential.decorator';
import { RequiresScope } from '../common/auth/requires-scope.decorator';
import { ApiAdminRoute, ApiPageResponse } from '../common/api-docs/api-route.decorators';
import { ListQueryDto } from '../common/http/list-query.dto';
import { ReservedId } from '../common/http/reserved-id.decorator';
import { UUID_PARAM } from '../common/http/uuid-param.pipe';
import { toApiKeyResponse, toCreatedApiKeyResponse } from './api-key-response';
import { ApiKeysService } from './api-keys.service';
import { ApiKeyResponseDto } from './dto/api-key-response.dto';
import { CreateApiKeyDto } from './dto/create-api-key.dto';
import { CreatedApiKeyResponseDto } from './dto/created-api-key-response.dto';

/** Admin API, section API keys: only `admin` may manage them. */
@ApiTags('API keys')
@Controller('api/v1/api-keys')
export class ApiKeysController {
  constructor(private readonly keys: ApiKeysService) {}

  @ApiAdminRoute({
    summary: 'Make an API key',
    description: 'The answer shows the key once; only its hash is kept. A key holds at most the scopes of the credential that makes it.',
    body: true,
    idempotent: true,
  })
  @ApiCreatedResponse({ type: CreatedApiKeyResponseDto })
  @RequiresScope('admin')
  @Post()
  async create(@Body() dto: CreateApiKeyDto, @CurrentCredential() creator: Credential, @ReservedId() reservedId?: string) {
    const { key, secret } = await this.keys.create(dto, creator, reservedId);
    return toCreatedApiKeyResponse(key, secret);
  }

  @ApiAdminRoute({ summary: 'List API keys', description: 'Revoked and expired keys too; never the keys themselves.', errors: ['validation_failed'] })
  @ApiPageResponse(ApiKeyResponseDto)
  @RequiresScope('admin')
  @Get()
  async list(@Query() query: ListQueryDto) {
    const page = await this.keys.list(query);
    return { items: page.items.map(toApiKeyResponse), nextCursor: page.nextCursor };
  }

  @ApiAdminRoute({ summary: 'Read an API key', id: 'API key' })
  @ApiOkResponse({ type: ApiKeyResponseDto })
  @RequiresScope('admin')
  @Get(':id')
  async get(@Param('id', UUID_PARAM) id: string) {
    return toApiKeyResponse(await this.keys.get(id));
  }

  @ApiAdminRoute({
    summary: 'Revoke an API key',
    description: 'Refused at once by this replica and within half a second by every other; console sessions signed in with it end. Revoking a revoked key changes nothing.',
    id: 'API key',
  })
  @ApiOkResponse({ type: ApiKeyResponseDto })
  @RequiresScope('admin')
  @Delete(':id')
  @HttpCode(200)
  async revoke(@Param('id', UUID_PARAM) id: string) {
    return toApiKeyResponse(await this.keys.revoke(id));
  }
}
