import { MigrationInterface, QueryRunner } from "typeorm";

/** Refunds of succeeded charges, to the card or to the credit balance: their own table, a queue of the work engine. */

export class Refunds1795871916287 implements MigrationInterface {
    name = 'Refunds1795871916287'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE TABLE "refunds" ("lease_owner" character varying(100), "fence" bigint NOT NULL DEFAULT '0', "id" uuid NOT NULL, "charge_id" uuid NOT NULL, "customer_id" uuid NOT NULL, "number" integer NOT NULL, "amount" bigint NOT NULL, "currency" character(3) NOT NULL, "destination" character varying(8) NOT NULL, "status" character varying(12) NOT NULL, "step" character varying(8) NOT NULL, "reason" character varying(32), "reference" character varying(64), "external_id" character varying(40), "provider_invoice_id" character varying(40), "provider_payment_id" character varying(40), "cart" jsonb, "provider_refund_id" character varying(40), "failure_code" character varying(200), "next_attempt_at" TIMESTAMP WITH TIME ZONE, "not_before" TIMESTAMP WITH TIME ZONE, "technical_failures" integer NOT NULL DEFAULT '0', "submitted_at" TIMESTAMP WITH TIME ZONE, "completed_at" TIMESTAMP(3) WITH TIME ZONE, "seq" BIGSERIAL NOT NULL, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_5106efb01eeda7e49a78b869738" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE INDEX "refunds_completed_idx" ON "refunds"  ("completed_at") WHERE status = 'succeeded'`);
        await queryRunner.query(`CREATE INDEX "refunds_provider_invoice_idx" ON "refunds"  ("provider_invoice_id") WHERE provider_invoice_id IS NOT NULL`);
        await queryRunner.query(`CREATE INDEX "refunds_status_idx" ON "refunds"  ("status", "created_at", "seq") `);
        await queryRunner.query(`CREATE INDEX "refunds_charge_idx" ON "refunds"  ("charge_id", "created_at", "seq") `);
        await queryRunner.query(`CREATE INDEX "refunds_created_idx" ON "refunds"  ("created_at", "seq") `);
        await queryRunner.query(`CREATE UNIQUE INDEX "refunds_reference_uq" ON "refunds"  ("reference") WHERE reference IS NOT NULL`);
        await queryRunner.query(`CREATE UNIQUE INDEX "refunds_external_id_uq" ON "refunds"  ("external_id") WHERE external_id IS NOT NULL`);
        await queryRunner.query(`CREATE UNIQUE INDEX "refunds_charge_number_uq" ON "refunds"  ("charge_id", "number") `);
        await queryRunner.query(`CREATE INDEX "refunds_claim_leased_idx" ON "refunds"  ("next_attempt_at") WHERE lease_owner IS NOT NULL AND next_attempt_at IS NOT NULL`);
        await queryRunner.query(`CREATE INDEX "refunds_claim_free_idx" ON "refunds"  ("next_attempt_at") WHERE lease_owner IS NULL AND next_attempt_at IS NOT NULL`);
        await queryRunner.query(`CREATE INDEX "refunds_lease_owner_idx" ON "refunds"  ("lease_owner") WHERE lease_owner IS NOT NULL`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`DROP INDEX "public"."refunds_lease_owner_idx"`);
        await queryRunner.query(`DROP INDEX "public"."refunds_claim_free_idx"`);
        await queryRunner.query(`DROP INDEX "public"."refunds_claim_leased_idx"`);
        await queryRunner.query(`DROP INDEX "public"."refunds_charge_number_uq"`);
        await queryRunner.query(`DROP INDEX "public"."refunds_external_id_uq"`);
        await queryRunner.query(`DROP INDEX "public"."refunds_reference_uq"`);
        await queryRunner.query(`DROP INDEX "public"."refunds_created_idx"`);
        await queryRunner.query(`DROP INDEX "public"."refunds_charge_idx"`);
        await queryRunner.query(`DROP INDEX "public"."refunds_status_idx"`);
        await queryRunner.query(`DROP INDEX "public"."refunds_provider_invoice_idx"`);
        await queryRunner.query(`DROP INDEX "public"."refunds_completed_idx"`);
        await queryRunner.query(`DROP TABLE "refunds"`);
    }

}
