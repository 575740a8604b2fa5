import { ConflictException, Injectable } from '@nestjs/common';
import { Clock } from './clock';
import { TestClockRepository } from './test-clock.repository';

/**
 * A clock that stands still until moved, persisted in the database so every replica reads the same
 * time. It starts at the real time of its first use and only ever moves forward.
 */
@Injectable()
export class TestClockService extends Clock {
  private current: Date | undefined;

  constructor(private readonly clock: TestClockRepository) {
    super();
  }

  now(): Date {
    if (!this.current) throw new Error('Test clock read before it was loaded: call refresh() first');
    return new Date(this.current.getTime());
  }

  override async refresh(): Promise<void> {
    this.current = await this.clock.read();
  }

  /** Moves the shared clock to `target`; refuses to go back (409). */
  async set(target: Date): Promise<Date> {
    await this.refresh();
    if (!(await this.clock.moveForward(target))) {
      throw new ConflictException(`The test clock only moves forward: it is ${this.now().toISOString()}, ${target.toISOString()} is earlier`);
    }
    await this.refresh();
    return this.now();
  }
}
