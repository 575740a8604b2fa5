import { BadRequestException, Body, Controller, Get, Headers, HttpCode, Param, ParseUUIDPipe, Post, Query } from '@nestjs/common';
import { EmptyBodyDto } from '../common/http/empty-body.dto';
import { ListQueryDto } from '../common/http/list-query.dto';
import { Page } from '../common/http/pagination';
import { UUID_PARAM } from '../common/http/uuid-param.pipe';
import { AccessTokenResponse, BindingResponse, CreatedCustomerResponse, CustomerResponse } from './customer.response';
import { CustomersService } from './customers.service';
import { CreateCustomerDto } from './dto/create-customer.dto';
import { ListCustomersQueryDto } from './dto/list-customers-query.dto';
import { StartBindingDto } from './dto/start-binding.dto';

const BINDING_ID_PARAM = new ParseUUIDPipe({ exceptionFactory: () => new BadRequestException(['bindingId must be a UUID']) });

@Controller('api/v1/customers')
export class CustomersController {
  constructor(private readonly customers: CustomersService) {}

  @Post()
  create(@Body() dto: CreateCustomerDto, @Headers('idempotency-key') idempotencyKey?: string): Promise<CreatedCustomerResponse> {
    return this.customers.create(dto, idempotencyKey);
  }

  @Get()
  list(@Query() query: ListCustomersQueryDto): Promise<Page<CustomerResponse>> {
    return this.customers.list(query);
  }

  @Get(':id')
  get(@Param('id', UUID_PARAM) id: string): Promise<CustomerResponse> {
    return this.customers.get(id);
  }

  @Post(':id/bindings')
  @HttpCode(202)
  startBinding(@Param('id', UUID_PARAM) id: string, @Body() dto: StartBindingDto): Promise<{ id: string; status: 'pending' }> {
    return this.customers.startBinding(id, dto);
  }

  @Get(':id/bindings')
  listBindings(@Param('id', UUID_PARAM) id: string, @Query() query: ListQueryDto): Promise<Page<BindingResponse>> {
    return this.customers.listBindings(id, query);
  }

  /** A new customer access token (and, with the built-in sandbox, a hosted form link that carries it). */
  @Post(':id/access-token')
  @HttpCode(201)
  issueAccessToken(@Param('id', UUID_PARAM) id: string, @Body() _body: EmptyBodyDto): Promise<AccessTokenResponse> {
    return this.customers.issueAccessToken(id);
  }

  /** One binding: its status, and while pending, the 3-D Secure redirect the payer owes (`interaction`). */
  @Get(':id/bindings/:bindingId')
  getBinding(@Param('id', UUID_PARAM) id: string, @Param('bindingId', BINDING_ID_PARAM) bindingId: string): Promise<BindingResponse> {
    return this.customers.getBinding(id, bindingId);
  }

  @Post(':id/refresh')
  @HttpCode(200)
  refresh(@Param('id', UUID_PARAM) id: string, @Body() _body: EmptyBodyDto): Promise<CustomerResponse> {
    return this.customers.refresh(id);
  }
}
