import { MigrationInterface, QueryRunner } from "typeorm";

/**
 * Every leased table finds the rows one process holds by an index: each heartbeat compares them with the claims the
 * process works on, to free the rows of a claim whose answer was lost.
 */
export class LeaseOwnerIndexes1795869489949 implements MigrationInterface {
    name = 'LeaseOwnerIndexes1795869489949'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE INDEX "plan_migrations_lease_owner_idx" ON "plan_migrations"  ("lease_owner") WHERE lease_owner IS NOT NULL`);
        await queryRunner.query(`CREATE INDEX "provider_events_lease_owner_idx" ON "provider_events"  ("lease_owner") WHERE lease_owner IS NOT NULL`);
        await queryRunner.query(`CREATE INDEX "provider_webhooks_lease_owner_idx" ON "provider_webhooks"  ("lease_owner") WHERE lease_owner IS NOT NULL`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`DROP INDEX "public"."provider_webhooks_lease_owner_idx"`);
        await queryRunner.query(`DROP INDEX "public"."provider_events_lease_owner_idx"`);
        await queryRunner.query(`DROP INDEX "public"."plan_migrations_lease_owner_idx"`);
    }

}
