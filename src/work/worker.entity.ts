import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * One row per running daemon process. Claims name their owner here; a claim whose owner stopped
 * heartbeating is taken over at once, so a killed process's work resumes within seconds.
 */
@Entity('workers')
export class Worker {
  @PrimaryColumn({ type: 'varchar', length: 100 })
  id: string;

  @Column({ type: 'varchar', length: 255 })
  host: string;

  @Column({ type: 'int' })
  pid: number;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  startedAt: Date;

  /** Database time of the last heartbeat. */
  @Column({ type: 'timestamptz', default: () => 'now()' })
  heartbeatAt: Date;
}
