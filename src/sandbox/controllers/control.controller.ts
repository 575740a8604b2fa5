import { BadRequestException, Controller, Delete, Get, HttpCode, Post, Query } from '@nestjs/common';
import { isPlainObject } from '../http/body-reader';
import { JsonBody } from '../http/json-body.decorator';
import { AccessTokensService } from '../services/access-tokens.service';
import { BindingsService } from '../services/bindings.service';
import { FaultRule, FaultsService } from '../services/faults.service';
import { Ledger, LedgerService } from '../services/ledger.service';
import { OutcomeScriptService } from '../services/outcome-script.service';
import { LoggedRequest, REQUEST_LOG_CAPACITY, RequestLogService } from '../services/request-log.service';
import { SandboxControlService, SandboxSettings } from '../services/sandbox-control.service';

/** Unauthenticated controls for tests, benchmarks and demos. Never part of the provider's API. */
@Controller('sandbox')
export class ControlController {
  constructor(
    private readonly control: SandboxControlService,
    private readonly ledgerService: LedgerService,
    private readonly faults: FaultsService,
    private readonly requestLog: RequestLogService,
    private readonly outcomes: OutcomeScriptService,
    private readonly tokens: AccessTokensService,
    private readonly bindings: BindingsService,
  ) {}

  @Post('reset')
  @HttpCode(204)
  reset(): void {
    this.control.reset();
  }

  @Get('ledger')
  ledger(): Ledger {
    return this.ledgerService.ledger();
  }

  @Post('faults')
  @HttpCode(201)
  addFault(@JsonBody() body: unknown): { id: string } {
    return { id: this.faults.add(body).id };
  }

  @Get('faults')
  listFaults(): FaultRule[] {
    return this.faults.list();
  }

  @Delete('faults')
  @HttpCode(204)
  clearFaults(): void {
    this.faults.clear();
  }

  @Get('requests')
  requests(@Query('operation') operation?: string, @Query('limit') limit?: string): LoggedRequest[] {
    let max: number | undefined;
    if (limit !== undefined) {
      max = Number(limit);
      if (!Number.isSafeInteger(max) || max < 1 || max > REQUEST_LOG_CAPACITY) throw new BadRequestException(`limit must be an integer in 1..${REQUEST_LOG_CAPACITY}`);
    }
    return this.requestLog.list(operation || undefined, max);
  }

  @Post('outcomes')
  @HttpCode(204)
  setOutcomes(@JsonBody() body: unknown): void {
    this.outcomes.set(body);
  }

  @Post('expire-tokens')
  @HttpCode(204)
  expireTokens(): void {
    this.tokens.expireAll();
  }

  /**
   * Every 3-D Secure check still waiting for its payer (or only that of `{bindingID}`) fails now with "3-D Secure
   * Timeout", as when its wait ends.
   */
  @Post('expire-three-ds')
  @HttpCode(200)
  expireThreeDs(@JsonBody() body: unknown): { expired: number } {
    const bindingID: unknown = isPlainObject(body) ? body.bindingID : undefined;
    if ((body !== undefined && !isPlainObject(body)) || (bindingID !== undefined && typeof bindingID !== 'string')) {
      throw new BadRequestException('body must be {} or {"bindingID": "<binding id>"}');
    }
    return { expired: this.bindings.expireOpenChecks(bindingID) };
  }

  @Get('config')
  settings(): SandboxSettings {
    return this.control.settings();
  }

  @Post('config')
  @HttpCode(200)
  updateSettings(@JsonBody() body: unknown): SandboxSettings {
    return this.control.update(body);
  }
}
