import { MigrationInterface, QueryRunner } from "typeorm";

/** Payout setup, destinations, batches and payouts (src/payouts). */
export class Payouts1795241900000 implements MigrationInterface {
    name = 'Payouts1795241900000'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE TABLE "payouts" ("id" uuid NOT NULL, "destination_id" uuid NOT NULL, "batch_id" uuid, "wallet_id" character varying(40) NOT NULL, "amount" bigint NOT NULL, "currency" character(3) NOT NULL, "status" character varying(12) NOT NULL, "withdrawal_external_id" character varying(40) NOT NULL, "provider_withdrawal_id" character varying(40), "failure_code" character varying(200), "next_attempt_at" TIMESTAMP WITH TIME ZONE, "not_before" TIMESTAMP WITH TIME ZONE, "technical_failures" integer NOT NULL DEFAULT '0', "submitted_at" TIMESTAMP WITH TIME ZONE, "completed_at" TIMESTAMP WITH TIME ZONE, "lease_owner" character varying(64), "lease_until" TIMESTAMP WITH TIME ZONE, "fence" bigint NOT NULL DEFAULT '0', "metadata" jsonb NOT NULL DEFAULT '{}', "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "payouts_withdrawal_external_id_uq" UNIQUE ("withdrawal_external_id"), CONSTRAINT "PK_76855dc4f0a6c18c72eea302e87" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE INDEX "payouts_destination_pending_idx" ON "payouts"  ("destination_id") WHERE status = 'pending'`);
        await queryRunner.query(`CREATE INDEX "payouts_work_idx" ON "payouts"  ("next_attempt_at") WHERE next_attempt_at IS NOT NULL`);
        await queryRunner.query(`CREATE INDEX "payouts_batch_status_idx" ON "payouts"  ("batch_id", "status") `);
        await queryRunner.query(`CREATE INDEX "payouts_created_idx" ON "payouts"  ("created_at", "id") `);
        await queryRunner.query(`CREATE TABLE "payout_batches" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "total" integer NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_aa57cb1e16d39cc0d41083145e4" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE TABLE "payout_destinations" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "provider_destination_id" character varying(40), "external_id" character varying(40) NOT NULL, "identity_id" character varying(40) NOT NULL, "name" character varying(100) NOT NULL, "currency" character(3) NOT NULL, "bin" character varying(8), "last_digits" character varying(4), "payment_system" character varying(40), "status" character varying(12) NOT NULL, "next_sync_at" TIMESTAMP WITH TIME ZONE, "metadata" jsonb NOT NULL DEFAULT '{}', "authorized_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "payout_destinations_external_id_uq" UNIQUE ("external_id"), CONSTRAINT "PK_924d833e18bd45e8ed4609a6104" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE INDEX "payout_destinations_sync_due_idx" ON "payout_destinations"  ("next_sync_at") WHERE next_sync_at IS NOT NULL`);
        await queryRunner.query(`CREATE INDEX "payout_destinations_created_idx" ON "payout_destinations"  ("created_at", "id") `);
        await queryRunner.query(`CREATE TABLE "payout_setup" ("id" smallint NOT NULL, "identity_id" character varying(40) NOT NULL, "wallet_id" character varying(40) NOT NULL, "currency" character(3) NOT NULL, "adopted" boolean NOT NULL DEFAULT false, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_be5b749715c0c930524c54a0599" PRIMARY KEY ("id"))`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`DROP TABLE "payout_setup"`);
        await queryRunner.query(`DROP INDEX "public"."payout_destinations_created_idx"`);
        await queryRunner.query(`DROP INDEX "public"."payout_destinations_sync_due_idx"`);
        await queryRunner.query(`DROP TABLE "payout_destinations"`);
        await queryRunner.query(`DROP TABLE "payout_batches"`);
        await queryRunner.query(`DROP INDEX "public"."payouts_created_idx"`);
        await queryRunner.query(`DROP INDEX "public"."payouts_batch_status_idx"`);
        await queryRunner.query(`DROP INDEX "public"."payouts_work_idx"`);
        await queryRunner.query(`DROP INDEX "public"."payouts_destination_pending_idx"`);
        await queryRunner.query(`DROP TABLE "payouts"`);
    }

}
