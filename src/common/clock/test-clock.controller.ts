import { BadRequestException, Body, Controller, Get, HttpCode, NotFoundException, Post } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { AppConfig } from '../../config/app-config';
import { ApiAdminRoute } from '../api-docs/api-route.decorators';
import { parseDuration } from '../duration';
import { Clock } from './clock';
import { SetTestClockDto } from './set-test-clock.dto';
import { TestClockResponseDto } from './test-clock-response.dto';
import { TestClockService } from './test-clock.service';
import { invalidField, withErrorCode } from '../errors/coded-error';
import { RequiresScope } from '../auth/requires-scope.decorator';

const LATEST_CLOCK_MS = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

@ApiTags('Test clock')
@Controller('api/v1/test-clock')
export class TestClockController {
  constructor(
    private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {}

  @ApiAdminRoute({ summary: 'Read the test clock', description: 'Only with TEST_CLOCK=true (404 otherwise).', errors: ['test_clock_disabled'] })
  @ApiOkResponse({ type: TestClockResponseDto })
  @RequiresScope('admin')
  @Get()
  get() {
    return { now: this.testClock().now().toISOString() };
  }

  @ApiAdminRoute({
    summary: 'Move the test clock forward',
    description: 'Send exactly one of `now` or `advance`. Time only moves forward (409), and never past 9999-12-31. Billing, retries, trials and polling all read this clock.',
    body: true,
    idempotent: true,
    errors: ['test_clock_disabled', 'state_conflict'],
  })
  @ApiBody({
    type: SetTestClockDto,
    examples: { advance: { summary: 'Move forward by a duration', value: { advance: '30d' } }, now: { summary: 'Move to a time', value: { now: '2027-03-01T00:00:00.000Z' } } },
  })
  @ApiOkResponse({ type: TestClockResponseDto })
  @RequiresScope('admin')
  @Post()
  @HttpCode(200)
  async move(@Body() body: SetTestClockDto) {
    const clock = this.testClock();
    if ((body.now === undefined) === (body.advance === undefined)) {
      throw new BadRequestException(['send exactly one of now or advance']);
    }
    await clock.refresh();
    const field = body.now !== undefined ? 'now' : 'advance';
    const target = body.now !== undefined ? new Date(body.now) : new Date(clock.now().getTime() + parseDuration(body.advance as string));
    // Dates past 9999 have no ISO 8601 form the API can answer, and PostgreSQL refuses some of them.
    if (!Number.isFinite(target.getTime()) || target.getTime() > LATEST_CLOCK_MS) {
      throw invalidField(field, `${field} would move the test clock past 9999-12-31T23:59:59.999Z`);
    }
    const now = await clock.set(target);
    return { now: now.toISOString() };
  }

  private testClock(): TestClockService {
    if (!this.config.testClock || !(this.clock instanceof TestClockService)) {
      throw withErrorCode(new NotFoundException('The test clock is off: start the daemon with TEST_CLOCK=true (never in production)'), 'test_clock_disabled');
    }
    return this.clock;
  }
}
