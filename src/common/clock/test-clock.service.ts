import { ConflictException, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Clock } from './clock';
import { TestClockState } from './test-clock.entity';

const ROW_ID = 1;

/**
 * A clock that stands still until moved, persisted in the database so every replica reads the same
 * time. It starts at the real time of its first use and only ever moves forward.
 */
@Injectable()
export class TestClockService extends Clock {
  private current: Date | undefined;

  constructor(private readonly dataSource: DataSource) {
    super();
  }

  now(): Date {
    if (!this.current) throw new Error('Test clock read before it was loaded: call refresh() first');
    return new Date(this.current.getTime());
  }

  override async refresh(): Promise<void> {
    await this.dataSource.query('INSERT INTO test_clock (id, now) VALUES ($1, now()) ON CONFLICT (id) DO NOTHING', [ROW_ID]);
    const row = await this.dataSource.getRepository(TestClockState).findOneByOrFail({ id: ROW_ID });
    this.current = row.now;
  }

  /** Moves the shared clock to `target`; refuses to go back (409). */
  async set(target: Date): Promise<Date> {
    await this.refresh();
    const result: [unknown[], number] = await this.dataSource.query(
      'UPDATE test_clock SET now = $2, updated_at = now() WHERE id = $1 AND now <= $2',
      [ROW_ID, target],
    );
    if (result[1] === 0) {
      throw new ConflictException(`The test clock only moves forward: it is ${this.now().toISOString()}, ${target.toISOString()} is earlier`);
    }
    await this.refresh();
    return this.now();
  }
}
