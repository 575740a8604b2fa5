import { MigrationInterface, QueryRunner } from "typeorm";

/**
 * Money outside the schedule: one-off charges (charges of kind `one_off`, with their own lines and reference, and no
 * subscription when they name none), pending items (their own table), and plans' setup fees. Hand-edited from the
 * generated one: the description column is widened in place and the indexes on subscription_id are kept (dropping
 * NOT NULL needs neither a new column nor a rebuilt index on a large table).
 */
export class OneOffCharges1795872049938 implements MigrationInterface {
    name = 'OneOffCharges1795872049938'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE TABLE "pending_items" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "subscription_id" uuid NOT NULL, "customer_id" uuid NOT NULL, "source" character varying(12) NOT NULL, "lines" jsonb NOT NULL, "amount" bigint NOT NULL, "currency" character(3) NOT NULL, "description" character varying(1000), "reference" character varying(64), "status" character varying(10) NOT NULL, "charge_id" uuid, "seq" BIGSERIAL NOT NULL, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_77eb717d94b7d01ad838b81fe48" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE UNIQUE INDEX "pending_items_setup_fee_uq" ON "pending_items"  ("subscription_id") WHERE source = 'setup_fee'`);
        await queryRunner.query(`CREATE UNIQUE INDEX "pending_items_reference_uq" ON "pending_items"  ("reference") WHERE reference IS NOT NULL`);
        await queryRunner.query(`CREATE INDEX "pending_items_subscription_idx" ON "pending_items"  ("subscription_id", "created_at", "seq") `);
        await queryRunner.query(`CREATE INDEX "pending_items_pending_idx" ON "pending_items"  ("subscription_id", "seq") WHERE status = 'pending'`);
        await queryRunner.query(`ALTER TABLE "charges" ADD "lines" jsonb`);
        await queryRunner.query(`ALTER TABLE "charges" ADD "reference" character varying(64)`);
        await queryRunner.query(`ALTER TABLE "plans" ADD "setup_fee" bigint`);
        await queryRunner.query(`ALTER TABLE "plans" ADD "setup_fee_tax_rate" character varying(10)`);
        await queryRunner.query(`ALTER TABLE "charges" ALTER COLUMN "subscription_id" DROP NOT NULL`);
        await queryRunner.query(`ALTER TABLE "charges" ALTER COLUMN "description" TYPE character varying(1000)`);
        await queryRunner.query(`CREATE INDEX "charges_await_customer_idx" ON "charges"  ("customer_id") WHERE step = 'await_customer'`);
        await queryRunner.query(`CREATE UNIQUE INDEX "charges_reference_uq" ON "charges"  ("reference") WHERE reference IS NOT NULL`);
        await queryRunner.query(`CREATE UNIQUE INDEX "charges_one_off_uq" ON "charges"  ("invoice_external_id") WHERE kind = 'one_off'`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`DROP INDEX "public"."charges_one_off_uq"`);
        await queryRunner.query(`DROP INDEX "public"."charges_reference_uq"`);
        await queryRunner.query(`DROP INDEX "public"."charges_await_customer_idx"`);
        // One-offs have no place in the older schema.
        await queryRunner.query(`DELETE FROM "charge_attempts" WHERE charge_id IN (SELECT id FROM "charges" WHERE kind = 'one_off')`);
        await queryRunner.query(`DELETE FROM "charges" WHERE kind = 'one_off'`);
        await queryRunner.query(`ALTER TABLE "charges" ALTER COLUMN "description" TYPE character varying(200) USING left("description", 200)`);
        await queryRunner.query(`ALTER TABLE "charges" ALTER COLUMN "subscription_id" SET NOT NULL`);
        await queryRunner.query(`ALTER TABLE "plans" DROP COLUMN "setup_fee_tax_rate"`);
        await queryRunner.query(`ALTER TABLE "plans" DROP COLUMN "setup_fee"`);
        await queryRunner.query(`ALTER TABLE "charges" DROP COLUMN "reference"`);
        await queryRunner.query(`ALTER TABLE "charges" DROP COLUMN "lines"`);
        await queryRunner.query(`DROP INDEX "public"."pending_items_pending_idx"`);
        await queryRunner.query(`DROP INDEX "public"."pending_items_subscription_idx"`);
        await queryRunner.query(`DROP INDEX "public"."pending_items_reference_uq"`);
        await queryRunner.query(`DROP INDEX "public"."pending_items_setup_fee_uq"`);
        await queryRunner.query(`DROP TABLE "pending_items"`);
    }

}
