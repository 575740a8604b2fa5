import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { TestClockState } from './test-clock.entity';

const ROW_ID = 1;

/** The one row of `test_clock`: the shared test clock every replica reads. */
@Injectable()
export class TestClockRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** The clock's time, starting it at the database's now on first use. */
  async read(): Promise<Date> {
    await this.dataSource.query('INSERT INTO test_clock (id, now) VALUES ($1, now()) ON CONFLICT (id) DO NOTHING', [ROW_ID]);
    return (await this.dataSource.getRepository(TestClockState).findOneByOrFail({ id: ROW_ID })).now;
  }

  /** Moves the clock to `target` unless that is earlier than its time; answers whether it moved. */
  async moveForward(target: Date): Promise<boolean> {
    const [, moved] = (await this.dataSource.query('UPDATE test_clock SET now = $2, updated_at = now() WHERE id = $1 AND now <= $2', [ROW_ID, target])) as [
      unknown,
      number,
    ];
    return moved > 0;
  }
}
