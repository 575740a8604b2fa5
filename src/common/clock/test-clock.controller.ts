import { BadRequestException, Body, Controller, Get, HttpCode, NotFoundException, Post } from '@nestjs/common';
import { AppConfig } from '../../config/app-config';
import { parseDuration } from '../duration';
import { Clock } from './clock';
import { SetTestClockDto } from './set-test-clock.dto';
import { TestClockService } from './test-clock.service';

@Controller('api/v1/test-clock')
export class TestClockController {
  constructor(
    private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {}

  @Get()
  get() {
    return { now: this.testClock().now().toISOString() };
  }

  @Post()
  @HttpCode(200)
  async move(@Body() body: SetTestClockDto) {
    const clock = this.testClock();
    if ((body.now === undefined) === (body.advance === undefined)) {
      throw new BadRequestException(['send exactly one of now or advance']);
    }
    const now = body.now !== undefined ? await clock.set(new Date(body.now)) : await clock.advance(parseDuration(body.advance as string));
    return { now: now.toISOString() };
  }

  private testClock(): TestClockService {
    if (!this.config.testClock || !(this.clock instanceof TestClockService)) {
      throw new NotFoundException('The test clock is off: start the daemon with TEST_CLOCK=true (never in production)');
    }
    return this.clock;
  }
}
