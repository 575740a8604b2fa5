import { MigrationInterface, QueryRunner } from "typeorm";

/** The revenue report's reads by index: statuses and plan changes per subscription, churn and first attempts by time. */
export class RevenueReportIndexes1795677961523 implements MigrationInterface {
    name = 'RevenueReportIndexes1795677961523'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE INDEX "charge_attempts_first_idx" ON "charge_attempts"  ("attempted_at") WHERE number = 1`);
        await queryRunner.query(`CREATE INDEX "subscription_events_ended_idx" ON "subscription_events"  ("occurred_at") WHERE to_status IN ('canceled', 'unpaid')`);
        await queryRunner.query(`CREATE INDEX "subscription_events_changed_idx" ON "subscription_events"  ("subscription_id", "occurred_at", "seq") WHERE type = 'changed'`);
        await queryRunner.query(`CREATE INDEX "subscription_events_status_idx" ON "subscription_events"  ("subscription_id", "occurred_at", "seq", "to_status") WHERE to_status IS NOT NULL`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`DROP INDEX "public"."subscription_events_status_idx"`);
        await queryRunner.query(`DROP INDEX "public"."subscription_events_changed_idx"`);
        await queryRunner.query(`DROP INDEX "public"."subscription_events_ended_idx"`);
        await queryRunner.query(`DROP INDEX "public"."charge_attempts_first_idx"`);
    }

}
