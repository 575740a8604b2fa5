import { MigrationInterface, QueryRunner } from "typeorm";

export class ProviderWebhooks1795596379473 implements MigrationInterface {
    name = 'ProviderWebhooks1795596379473'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE TABLE "provider_events" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "dedupe_key" character varying(200) NOT NULL, "topic" character varying(20) NOT NULL, "event_type" character varying(40) NOT NULL, "object_id" character varying(40) NOT NULL, "payload" jsonb NOT NULL, "received_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "applied_at" TIMESTAMP WITH TIME ZONE, "outcome" character varying(20), "next_attempt_at" TIMESTAMP WITH TIME ZONE, "attempts" integer NOT NULL DEFAULT '0', "lease_owner" character varying(100), "fence" bigint NOT NULL DEFAULT '0', CONSTRAINT "provider_events_dedupe_uq" UNIQUE ("dedupe_key"), CONSTRAINT "PK_d882a90f8c8180b9bdae9af62eb" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE INDEX "provider_events_received_idx" ON "provider_events"  ("received_at") `);
        await queryRunner.query(`CREATE INDEX "provider_events_due_idx" ON "provider_events"  ("next_attempt_at") WHERE next_attempt_at IS NOT NULL`);
        await queryRunner.query(`CREATE TABLE "provider_webhooks" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "api" character varying(12) NOT NULL, "topic" character varying(20) NOT NULL, "scope_key" character varying(100) NOT NULL, "url" character varying(1000) NOT NULL, "status" character varying(12) NOT NULL, "provider_webhook_id" character varying(40), "public_key" text, "last_event_at" TIMESTAMP WITH TIME ZONE, "next_attempt_at" TIMESTAMP WITH TIME ZONE, "failures" integer NOT NULL DEFAULT '0', "last_error" character varying(300), "lease_owner" character varying(100), "fence" bigint NOT NULL DEFAULT '0', "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "provider_webhooks_scope_uq" UNIQUE ("api", "topic", "scope_key", "url"), CONSTRAINT "PK_df6b8bf8fe6fb20ce4f12577a47" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE INDEX "provider_webhooks_due_idx" ON "provider_webhooks"  ("next_attempt_at") WHERE next_attempt_at IS NOT NULL`);
        await queryRunner.query(`CREATE INDEX "charges_provider_invoice_idx" ON "charges"  ("provider_invoice_id") WHERE provider_invoice_id IS NOT NULL`);
        await queryRunner.query(`CREATE INDEX "payout_destinations_provider_idx" ON "payout_destinations"  ("provider_destination_id") WHERE provider_destination_id IS NOT NULL`);
        await queryRunner.query(`CREATE INDEX "payouts_provider_withdrawal_idx" ON "payouts"  ("provider_withdrawal_id") WHERE provider_withdrawal_id IS NOT NULL`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`DROP INDEX "public"."payouts_provider_withdrawal_idx"`);
        await queryRunner.query(`DROP INDEX "public"."payout_destinations_provider_idx"`);
        await queryRunner.query(`DROP INDEX "public"."charges_provider_invoice_idx"`);
        await queryRunner.query(`DROP INDEX "public"."provider_webhooks_due_idx"`);
        await queryRunner.query(`DROP TABLE "provider_webhooks"`);
        await queryRunner.query(`DROP INDEX "public"."provider_events_due_idx"`);
        await queryRunner.query(`DROP INDEX "public"."provider_events_received_idx"`);
        await queryRunner.query(`DROP TABLE "provider_events"`);
    }

}
