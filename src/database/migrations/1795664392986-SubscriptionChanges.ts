import { MigrationInterface, QueryRunner } from "typeorm";

/** Subscription changes (issue 15): seats, a change pending until the renewal, charge kinds, and the credit balance ledger. */

export class SubscriptionChanges1795664392986 implements MigrationInterface {
    name = 'SubscriptionChanges1795664392986'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "charges" DROP CONSTRAINT "charges_subscription_period_uq"`);
        await queryRunner.query(`CREATE TABLE "balance_entries" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "customer_id" uuid NOT NULL, "currency" character(3) NOT NULL, "kind" character varying(20) NOT NULL, "amount" bigint NOT NULL, "reference" character varying(120) NOT NULL, "subscription_id" uuid, "charge_id" uuid, "description" character varying(200), "seq" BIGSERIAL NOT NULL, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_048c08cbd9ace901924a3f794ce" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE UNIQUE INDEX "balance_entries_reference_uq" ON "balance_entries"  ("reference") `);
        await queryRunner.query(`CREATE INDEX "balance_entries_customer_idx" ON "balance_entries"  ("customer_id", "currency", "seq") `);
        await queryRunner.query(`ALTER TABLE "charges" ADD "kind" character varying(12) NOT NULL DEFAULT 'period'`);
        await queryRunner.query(`ALTER TABLE "charges" ADD "description" character varying(200)`);
        await queryRunner.query(`ALTER TABLE "charges" ADD "paid_from_balance" bigint NOT NULL DEFAULT '0'`);
        await queryRunner.query(`ALTER TABLE "subscriptions" ADD "quantity" integer NOT NULL DEFAULT '1'`);
        await queryRunner.query(`ALTER TABLE "subscriptions" ADD "pending_change" jsonb`);
        await queryRunner.query(`ALTER TABLE "charges" ADD CONSTRAINT "charges_subscription_period_kind_uq" UNIQUE ("subscription_id", "period_start", "kind")`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "charges" DROP CONSTRAINT "charges_subscription_period_kind_uq"`);
        await queryRunner.query(`ALTER TABLE "subscriptions" DROP COLUMN "pending_change"`);
        await queryRunner.query(`ALTER TABLE "subscriptions" DROP COLUMN "quantity"`);
        await queryRunner.query(`ALTER TABLE "charges" DROP COLUMN "paid_from_balance"`);
        await queryRunner.query(`ALTER TABLE "charges" DROP COLUMN "description"`);
        await queryRunner.query(`ALTER TABLE "charges" DROP COLUMN "kind"`);
        await queryRunner.query(`DROP INDEX "public"."balance_entries_customer_idx"`);
        await queryRunner.query(`DROP INDEX "public"."balance_entries_reference_uq"`);
        await queryRunner.query(`DROP TABLE "balance_entries"`);
        await queryRunner.query(`ALTER TABLE "charges" ADD CONSTRAINT "charges_subscription_period_uq" UNIQUE ("subscription_id", "period_start")`);
    }

}
