import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, DeepPartial, EntityManager } from 'typeorm';
import { PlanMigration } from './plan-migration.entity';

/** Every statement on `plan_migrations` outside the work engine's claim and fenced writes. */
@Injectable()
export class PlanMigrationsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Runs `work` in one short transaction. */
  transaction<T>(work: (em: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(work);
  }

  /** Inserts the migration, due at once on the database's clock (the queue's). */
  async insert(em: EntityManager, values: DeepPartial<PlanMigration>): Promise<void> {
    await em.createQueryBuilder().insert().into(PlanMigration).values({ ...values, nextRunAt: () => 'now()' }).execute();
  }

  findById(id: string): Promise<PlanMigration | null> {
    return this.dataSource.getRepository(PlanMigration).findOneBy({ id });
  }
}
