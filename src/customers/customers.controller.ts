import { Body, Controller, Get, Headers, HttpCode, Param, ParseUUIDPipe, Post, Query } from '@nestjs/common';
import { ApiAcceptedResponse, ApiBody, ApiCreatedResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { ApiAdminRoute, ApiPageResponse, PROVIDER_ERRORS } from '../common/api-docs/api-route.decorators';
import { invalidField } from '../common/errors/coded-error';
import { EmptyBodyDto } from '../common/http/empty-body.dto';
import { ListQueryDto } from '../common/http/list-query.dto';
import { Page } from '../common/http/pagination';
import { ReservedId } from '../common/http/reserved-id.decorator';
import { UUID_PARAM } from '../common/http/uuid-param.pipe';
import { AccessTokenResponse, BindingResponse, CreatedCustomerResponse, CustomerResponse } from './customer.response';
import { CustomersService } from './customers.service';
import { AccessTokenResponseDto } from './dto/access-token-response.dto';
import { BindingResponseDto } from './dto/binding-response.dto';
import { BindingStartedResponseDto } from './dto/binding-started-response.dto';
import { CreateCustomerDto } from './dto/create-customer.dto';
import { CreatedCustomerResponseDto } from './dto/created-customer-response.dto';
import { CustomerResponseDto } from './dto/customer-response.dto';
import { ListCustomersQueryDto } from './dto/list-customers-query.dto';
import { StartBindingDto } from './dto/start-binding.dto';
import { RequiresScope } from '../common/auth/requires-scope.decorator';

const BINDING_ID_PARAM = new ParseUUIDPipe({ exceptionFactory: () => invalidField('bindingId', 'bindingId must be a UUID') });

@ApiTags('Customers')
@Controller('api/v1/customers')
export class CustomersController {
  constructor(private readonly customers: CustomersService) {}

  @ApiAdminRoute({
    summary: 'Create a customer',
    description: 'Creates the customer at the provider. The answer carries the customer access token for the hosted payment form, once.',
    body: true,
    idempotent: true,
    errors: PROVIDER_ERRORS,
  })
  @ApiCreatedResponse({ type: CreatedCustomerResponseDto })
  @RequiresScope('customers:write')
  @Post()
  create(@Body() dto: CreateCustomerDto, @Headers('Idempotency-Key') idempotencyKey?: string): Promise<CreatedCustomerResponse> {
    return this.customers.create(dto, idempotencyKey);
  }

  @ApiAdminRoute({ summary: 'List customers', errors: ['validation_failed'] })
  @ApiPageResponse(CustomerResponseDto)
  @RequiresScope('customers:read')
  @Get()
  list(@Query() query: ListCustomersQueryDto): Promise<Page<CustomerResponse>> {
    return this.customers.list(query);
  }

  @ApiAdminRoute({ summary: 'Read a customer', description: '`status` is `ready` once a card is bound; `card` shows the active card.', id: 'customer' })
  @ApiOkResponse({ type: CustomerResponseDto })
  @RequiresScope('customers:read')
  @Get(':id')
  get(@Param('id', UUID_PARAM) id: string): Promise<CustomerResponse> {
    return this.customers.get(id);
  }

  @ApiAdminRoute({
    summary: "Bind a card from the merchant's own card form",
    description: 'Starts a binding at the provider with the token your card form got; the outcome follows (GET the customer or its bindings).',
    id: 'customer',
    body: true,
    idempotent: true,
    errors: PROVIDER_ERRORS,
  })
  @ApiAcceptedResponse({ type: BindingStartedResponseDto })
  @RequiresScope('customers:write')
  @Post(':id/bindings')
  @HttpCode(202)
  startBinding(@Param('id', UUID_PARAM) id: string, @Body() dto: StartBindingDto, @ReservedId() reservedId?: string): Promise<{ id: string; status: 'pending' }> {
    return this.customers.startBinding(id, dto, reservedId);
  }

  @ApiAdminRoute({ summary: "List a customer's card bindings", id: 'customer' })
  @ApiPageResponse(BindingResponseDto)
  @RequiresScope('customers:read')
  @Get(':id/bindings')
  listBindings(@Param('id', UUID_PARAM) id: string, @Query() query: ListQueryDto): Promise<Page<BindingResponse>> {
    return this.customers.listBindings(id, query);
  }

  @ApiAdminRoute({
    summary: 'Issue a new customer access token',
    description:
      'Asks the provider for a new customer access token, for a lost or expired one (they live three days). It is answered here only, ' +
      'never stored; with the built-in sandbox the answer also carries the hosted form link with the token.',
    id: 'customer',
    body: true,
    idempotent: true,
    errors: PROVIDER_ERRORS,
  })
  @ApiBody({ type: EmptyBodyDto, required: false })
  @ApiCreatedResponse({ type: AccessTokenResponseDto })
  @RequiresScope('customers:write')
  @Post(':id/access-token')
  @HttpCode(201)
  issueAccessToken(@Param('id', UUID_PARAM) id: string, @Body() _body: EmptyBodyDto): Promise<AccessTokenResponse> {
    return this.customers.issueAccessToken(id);
  }

  @ApiAdminRoute({
    summary: 'Read one card binding',
    description: 'Its status and, while it waits for the payer, the 3-D Secure redirect to send them to (`interaction`).',
    id: 'customer',
  })
  @ApiOkResponse({ type: BindingResponseDto })
  @RequiresScope('customers:read')
  @Get(':id/bindings/:bindingId')
  getBinding(@Param('id', UUID_PARAM) id: string, @Param('bindingId', BINDING_ID_PARAM) bindingId: string): Promise<BindingResponse> {
    return this.customers.getBinding(id, bindingId);
  }

  @ApiAdminRoute({
    summary: 'Read the customer at the provider now',
    description: 'The daemon follows unready customers on its own; this reads the provider at once.',
    id: 'customer',
    body: true,
    idempotent: true,
    errors: PROVIDER_ERRORS,
  })
  @ApiBody({ type: EmptyBodyDto, required: false })
  @ApiOkResponse({ type: CustomerResponseDto })
  @RequiresScope('customers:write')
  @Post(':id/refresh')
  @HttpCode(200)
  refresh(@Param('id', UUID_PARAM) id: string, @Body() _body: EmptyBodyDto): Promise<CustomerResponse> {
    return this.customers.refresh(id);
  }
}
