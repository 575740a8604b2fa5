import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

/** Every statement on `workers`: the running processes and their heartbeats. */
@Injectable()
export class WorkersRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Registers the process, or records its heartbeat (database time). */
  async beat(id: string, host: string, pid: number): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO workers (id, host, pid) VALUES ($1, $2, $3)
       ON CONFLICT (id) DO UPDATE SET heartbeat_at = now()`,
      [id, host, pid],
    );
  }

  async remove(id: string): Promise<void> {
    await this.dataSource.query('DELETE FROM workers WHERE id = $1', [id]);
  }
}
