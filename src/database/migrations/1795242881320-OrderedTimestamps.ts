import { MigrationInterface, QueryRunner } from "typeorm";

export class OrderedTimestamps1795242881320 implements MigrationInterface {
    name = 'OrderedTimestamps1795242881320'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`DROP INDEX "public"."subscription_events_subscription_idx"`);
        await queryRunner.query(`ALTER TABLE "subscription_events" ADD "seq" BIGSERIAL NOT NULL`);
        await queryRunner.query(`DROP INDEX "public"."charges_subscription_idx"`);
        await queryRunner.query(`DROP INDEX "public"."charges_created_idx"`);
        await queryRunner.query(`ALTER TABLE "charges" ALTER COLUMN "created_at" TYPE TIMESTAMP(3) WITH TIME ZONE`);
        await queryRunner.query(`DROP INDEX "public"."customers_created_idx"`);
        await queryRunner.query(`ALTER TABLE "customers" ALTER COLUMN "created_at" TYPE TIMESTAMP(3) WITH TIME ZONE`);
        await queryRunner.query(`DROP INDEX "public"."customer_bindings_customer_idx"`);
        await queryRunner.query(`ALTER TABLE "customer_bindings" ALTER COLUMN "created_at" TYPE TIMESTAMP(3) WITH TIME ZONE`);
        await queryRunner.query(`DROP INDEX "public"."plans_created_idx"`);
        await queryRunner.query(`ALTER TABLE "plans" ALTER COLUMN "created_at" TYPE TIMESTAMP(3) WITH TIME ZONE`);
        await queryRunner.query(`DROP INDEX "public"."subscriptions_customer_idx"`);
        await queryRunner.query(`DROP INDEX "public"."subscriptions_created_idx"`);
        await queryRunner.query(`ALTER TABLE "subscriptions" ALTER COLUMN "created_at" TYPE TIMESTAMP(3) WITH TIME ZONE`);
        await queryRunner.query(`ALTER TABLE "subscription_events" ALTER COLUMN "created_at" TYPE TIMESTAMP(3) WITH TIME ZONE`);
        await queryRunner.query(`CREATE INDEX "charges_subscription_idx" ON "charges"  ("subscription_id", "created_at") `);
        await queryRunner.query(`CREATE INDEX "charges_created_idx" ON "charges"  ("created_at", "id") `);
        await queryRunner.query(`CREATE INDEX "customers_created_idx" ON "customers"  ("created_at", "id") `);
        await queryRunner.query(`CREATE INDEX "customer_bindings_customer_idx" ON "customer_bindings"  ("customer_id", "created_at") `);
        await queryRunner.query(`CREATE INDEX "plans_created_idx" ON "plans"  ("created_at", "id") `);
        await queryRunner.query(`CREATE INDEX "subscriptions_customer_idx" ON "subscriptions"  ("customer_id", "created_at") `);
        await queryRunner.query(`CREATE INDEX "subscriptions_created_idx" ON "subscriptions"  ("created_at", "id") `);
        await queryRunner.query(`CREATE INDEX "subscription_events_subscription_idx" ON "subscription_events"  ("subscription_id", "seq") `);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`DROP INDEX "public"."subscription_events_subscription_idx"`);
        await queryRunner.query(`DROP INDEX "public"."subscriptions_created_idx"`);
        await queryRunner.query(`DROP INDEX "public"."subscriptions_customer_idx"`);
        await queryRunner.query(`DROP INDEX "public"."plans_created_idx"`);
        await queryRunner.query(`DROP INDEX "public"."customer_bindings_customer_idx"`);
        await queryRunner.query(`DROP INDEX "public"."customers_created_idx"`);
        await queryRunner.query(`DROP INDEX "public"."charges_created_idx"`);
        await queryRunner.query(`DROP INDEX "public"."charges_subscription_idx"`);
        await queryRunner.query(`ALTER TABLE "subscription_events" ALTER COLUMN "created_at" TYPE TIMESTAMP(6) WITH TIME ZONE`);
        await queryRunner.query(`ALTER TABLE "subscriptions" ALTER COLUMN "created_at" TYPE TIMESTAMP(6) WITH TIME ZONE`);
        await queryRunner.query(`CREATE INDEX "subscriptions_created_idx" ON "subscriptions" USING btree ("id", "created_at") `);
        await queryRunner.query(`CREATE INDEX "subscriptions_customer_idx" ON "subscriptions" USING btree ("customer_id", "created_at") `);
        await queryRunner.query(`ALTER TABLE "plans" ALTER COLUMN "created_at" TYPE TIMESTAMP(6) WITH TIME ZONE`);
        await queryRunner.query(`CREATE INDEX "plans_created_idx" ON "plans" USING btree ("id", "created_at") `);
        await queryRunner.query(`ALTER TABLE "customer_bindings" ALTER COLUMN "created_at" TYPE TIMESTAMP(6) WITH TIME ZONE`);
        await queryRunner.query(`CREATE INDEX "customer_bindings_customer_idx" ON "customer_bindings" USING btree ("customer_id", "created_at") `);
        await queryRunner.query(`ALTER TABLE "customers" ALTER COLUMN "created_at" TYPE TIMESTAMP(6) WITH TIME ZONE`);
        await queryRunner.query(`CREATE INDEX "customers_created_idx" ON "customers" USING btree ("id", "created_at") `);
        await queryRunner.query(`ALTER TABLE "charges" ALTER COLUMN "created_at" TYPE TIMESTAMP(6) WITH TIME ZONE`);
        await queryRunner.query(`CREATE INDEX "charges_created_idx" ON "charges" USING btree ("id", "created_at") `);
        await queryRunner.query(`CREATE INDEX "charges_subscription_idx" ON "charges" USING btree ("subscription_id", "created_at") `);
        await queryRunner.query(`ALTER TABLE "subscription_events" DROP COLUMN "seq"`);
        await queryRunner.query(`CREATE INDEX "subscription_events_subscription_idx" ON "subscription_events" USING btree ("id", "subscription_id", "created_at") `);
    }

}
