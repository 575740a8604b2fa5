import { Column, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';

/** The single shared test clock row (id = 1); only used when TEST_CLOCK=true. */
@Entity('test_clock')
export class TestClockState {
  @PrimaryColumn({ type: 'int' })
  id: number;

  @Column({ type: 'timestamptz' })
  now: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}
