import { MigrationInterface, QueryRunner } from "typeorm";

/**
 * Lists order by (created_at, seq): created_at is business time and may repeat, seq is the insertion order that
 * breaks the tie. Indexes serve each list filter (status, customer, plan, batch) in that order, so no filter scans.
 */
export class ListOrderAndFilters1795593530175 implements MigrationInterface {
    name = 'ListOrderAndFilters1795593530175'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`DROP INDEX "public"."charges_subscription_idx"`);
        await queryRunner.query(`DROP INDEX "public"."charges_created_idx"`);
        await queryRunner.query(`DROP INDEX "public"."customer_bindings_customer_idx"`);
        await queryRunner.query(`DROP INDEX "public"."customers_created_idx"`);
        await queryRunner.query(`DROP INDEX "public"."payout_destinations_created_idx"`);
        await queryRunner.query(`DROP INDEX "public"."payouts_created_idx"`);
        await queryRunner.query(`DROP INDEX "public"."plans_created_idx"`);
        await queryRunner.query(`DROP INDEX "public"."subscriptions_customer_idx"`);
        await queryRunner.query(`DROP INDEX "public"."subscriptions_created_idx"`);
        await queryRunner.query(`ALTER TABLE "charges" ADD "seq" BIGSERIAL NOT NULL`);
        await queryRunner.query(`ALTER TABLE "customer_bindings" ADD "seq" BIGSERIAL NOT NULL`);
        await queryRunner.query(`ALTER TABLE "customers" ADD "seq" BIGSERIAL NOT NULL`);
        await queryRunner.query(`ALTER TABLE "payout_batches" ADD "seq" BIGSERIAL NOT NULL`);
        await queryRunner.query(`ALTER TABLE "payout_destinations" ADD "seq" BIGSERIAL NOT NULL`);
        await queryRunner.query(`ALTER TABLE "payouts" ADD "seq" BIGSERIAL NOT NULL`);
        await queryRunner.query(`ALTER TABLE "plans" ADD "seq" BIGSERIAL NOT NULL`);
        await queryRunner.query(`ALTER TABLE "subscriptions" ADD "seq" BIGSERIAL NOT NULL`);
        await queryRunner.query(`ALTER TABLE "payout_batches" ALTER COLUMN "created_at" TYPE TIMESTAMP(3) WITH TIME ZONE`);
        await queryRunner.query(`CREATE INDEX "charges_status_idx" ON "charges"  ("status", "created_at", "seq") `);
        await queryRunner.query(`CREATE INDEX "charges_customer_idx" ON "charges"  ("customer_id", "created_at", "seq") `);
        await queryRunner.query(`CREATE INDEX "charges_subscription_idx" ON "charges"  ("subscription_id", "created_at", "seq") `);
        await queryRunner.query(`CREATE INDEX "charges_created_idx" ON "charges"  ("created_at", "seq") `);
        await queryRunner.query(`CREATE INDEX "customer_bindings_customer_idx" ON "customer_bindings"  ("customer_id", "created_at", "seq") `);
        await queryRunner.query(`CREATE INDEX "customers_status_idx" ON "customers"  ("status", "created_at", "seq") `);
        await queryRunner.query(`CREATE INDEX "customers_created_idx" ON "customers"  ("created_at", "seq") `);
        await queryRunner.query(`CREATE INDEX "payout_batches_created_idx" ON "payout_batches"  ("created_at", "seq") `);
        await queryRunner.query(`CREATE INDEX "payout_destinations_created_idx" ON "payout_destinations"  ("created_at", "seq") `);
        await queryRunner.query(`CREATE INDEX "payouts_batch_idx" ON "payouts"  ("batch_id", "created_at", "seq") `);
        await queryRunner.query(`CREATE INDEX "payouts_status_idx" ON "payouts"  ("status", "created_at", "seq") `);
        await queryRunner.query(`CREATE INDEX "payouts_created_idx" ON "payouts"  ("created_at", "seq") `);
        await queryRunner.query(`CREATE INDEX "plans_status_idx" ON "plans"  ("status", "created_at", "seq") `);
        await queryRunner.query(`CREATE INDEX "plans_created_idx" ON "plans"  ("created_at", "seq") `);
        await queryRunner.query(`CREATE INDEX "subscriptions_status_idx" ON "subscriptions"  ("status", "created_at", "seq") `);
        await queryRunner.query(`CREATE INDEX "subscriptions_plan_idx" ON "subscriptions"  ("plan_id", "created_at", "seq") `);
        await queryRunner.query(`CREATE INDEX "subscriptions_customer_idx" ON "subscriptions"  ("customer_id", "created_at", "seq") `);
        await queryRunner.query(`CREATE INDEX "subscriptions_created_idx" ON "subscriptions"  ("created_at", "seq") `);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`DROP INDEX "public"."subscriptions_created_idx"`);
        await queryRunner.query(`DROP INDEX "public"."subscriptions_customer_idx"`);
        await queryRunner.query(`DROP INDEX "public"."subscriptions_plan_idx"`);
        await queryRunner.query(`DROP INDEX "public"."subscriptions_status_idx"`);
        await queryRunner.query(`DROP INDEX "public"."plans_created_idx"`);
        await queryRunner.query(`DROP INDEX "public"."plans_status_idx"`);
        await queryRunner.query(`DROP INDEX "public"."payouts_created_idx"`);
        await queryRunner.query(`DROP INDEX "public"."payouts_status_idx"`);
        await queryRunner.query(`DROP INDEX "public"."payouts_batch_idx"`);
        await queryRunner.query(`DROP INDEX "public"."payout_destinations_created_idx"`);
        await queryRunner.query(`DROP INDEX "public"."payout_batches_created_idx"`);
        await queryRunner.query(`DROP INDEX "public"."customers_created_idx"`);
        await queryRunner.query(`DROP INDEX "public"."customers_status_idx"`);
        await queryRunner.query(`DROP INDEX "public"."customer_bindings_customer_idx"`);
        await queryRunner.query(`DROP INDEX "public"."charges_created_idx"`);
        await queryRunner.query(`DROP INDEX "public"."charges_subscription_idx"`);
        await queryRunner.query(`DROP INDEX "public"."charges_customer_idx"`);
        await queryRunner.query(`DROP INDEX "public"."charges_status_idx"`);
        await queryRunner.query(`ALTER TABLE "payout_batches" ALTER COLUMN "created_at" TYPE TIMESTAMP(6) WITH TIME ZONE`);
        await queryRunner.query(`ALTER TABLE "subscriptions" DROP COLUMN "seq"`);
        await queryRunner.query(`ALTER TABLE "plans" DROP COLUMN "seq"`);
        await queryRunner.query(`ALTER TABLE "payouts" DROP COLUMN "seq"`);
        await queryRunner.query(`ALTER TABLE "payout_destinations" DROP COLUMN "seq"`);
        await queryRunner.query(`ALTER TABLE "payout_batches" DROP COLUMN "seq"`);
        await queryRunner.query(`ALTER TABLE "customers" DROP COLUMN "seq"`);
        await queryRunner.query(`ALTER TABLE "customer_bindings" DROP COLUMN "seq"`);
        await queryRunner.query(`ALTER TABLE "charges" DROP COLUMN "seq"`);
        await queryRunner.query(`CREATE INDEX "subscriptions_created_idx" ON "subscriptions" ("created_at", "id") `);
        await queryRunner.query(`CREATE INDEX "subscriptions_customer_idx" ON "subscriptions" USING btree ("customer_id", "created_at") `);
        await queryRunner.query(`CREATE INDEX "plans_created_idx" ON "plans" ("created_at", "id") `);
        await queryRunner.query(`CREATE INDEX "payouts_created_idx" ON "payouts" ("created_at", "id") `);
        await queryRunner.query(`CREATE INDEX "payout_destinations_created_idx" ON "payout_destinations" ("created_at", "id") `);
        await queryRunner.query(`CREATE INDEX "customers_created_idx" ON "customers" ("created_at", "id") `);
        await queryRunner.query(`CREATE INDEX "customer_bindings_customer_idx" ON "customer_bindings" USING btree ("customer_id", "created_at") `);
        await queryRunner.query(`CREATE INDEX "charges_created_idx" ON "charges" ("created_at", "id") `);
        await queryRunner.query(`CREATE INDEX "charges_subscription_idx" ON "charges" USING btree ("subscription_id", "created_at") `);
    }

}
