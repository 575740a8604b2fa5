import { MigrationInterface, QueryRunner } from "typeorm";

/**
 * A subscription whose due period a pass cannot make into a charge is recorded on it (why, since when, how many passes)
 * with a backoff for the scheduler's passes, instead of failing the pass for every other subscription.
 */
export class SubscriptionBillingErrors1795868365814 implements MigrationInterface {
    name = 'SubscriptionBillingErrors1795868365814'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "subscriptions" ADD "billing_error" jsonb`);
        await queryRunner.query(`ALTER TABLE "subscriptions" ADD "billing_retry_at" TIMESTAMP WITH TIME ZONE`);
        await queryRunner.query(`CREATE INDEX "subscriptions_billing_error_idx" ON "subscriptions"  ("status") WHERE billing_error IS NOT NULL`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`DROP INDEX "public"."subscriptions_billing_error_idx"`);
        await queryRunner.query(`ALTER TABLE "subscriptions" DROP COLUMN "billing_retry_at"`);
        await queryRunner.query(`ALTER TABLE "subscriptions" DROP COLUMN "billing_error"`);
    }

}
