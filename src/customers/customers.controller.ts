import { Body, Controller, Get, Headers, HttpCode, Param, Post, Query } from '@nestjs/common';
import { EmptyBodyDto } from '../common/http/empty-body.dto';
import { ListQueryDto } from '../common/http/list-query.dto';
import { Page } from '../common/http/pagination';
import { UUID_PARAM } from '../common/http/uuid-param.pipe';
import { BindingResponse, CreatedCustomerResponse, CustomerResponse } from './customer.response';
import { CustomersService } from './customers.service';
import { CreateCustomerDto } from './dto/create-customer.dto';
import { ListCustomersQueryDto } from './dto/list-customers-query.dto';
import { StartBindingDto } from './dto/start-binding.dto';

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

  @Post(':id/refresh')
  @HttpCode(200)
  refresh(@Param('id', UUID_PARAM) id: string, @Body() _body: EmptyBodyDto): Promise<CustomerResponse> {
    return this.customers.refresh(id);
  }
}
