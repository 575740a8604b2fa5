import { MigrationInterface, QueryRunner } from "typeorm";

/** Merchant events (the outbox), webhook endpoints with sealed secrets, the delivery queue and its attempts. */

export class MerchantEventsAndWebhooks1795598240433 implements MigrationInterface {
    name = 'MerchantEventsAndWebhooks1795598240433'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE TABLE "events" ("id" uuid NOT NULL, "seq" BIGSERIAL NOT NULL, "type" character varying(40) NOT NULL, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, "data" jsonb NOT NULL, CONSTRAINT "PK_40731c7151fe4be3116e45ddf73" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE INDEX "events_type_created_idx" ON "events"  ("type", "created_at", "seq") `);
        await queryRunner.query(`CREATE INDEX "events_created_idx" ON "events"  ("created_at", "seq") `);
        await queryRunner.query(`CREATE TABLE "webhook_attempts" ("id" uuid NOT NULL, "seq" BIGSERIAL NOT NULL, "delivery_id" uuid NOT NULL, "endpoint_id" uuid NOT NULL, "event_id" uuid NOT NULL, "number" integer NOT NULL, "status" character varying(12) NOT NULL, "response_status" integer, "duration_ms" integer NOT NULL, "error" character varying(300), "next_attempt_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, CONSTRAINT "PK_2de7e7887ad97de459adab62638" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE INDEX "webhook_attempts_created_idx" ON "webhook_attempts"  ("created_at") `);
        await queryRunner.query(`CREATE INDEX "webhook_attempts_endpoint_idx" ON "webhook_attempts"  ("endpoint_id", "created_at", "seq") `);
        await queryRunner.query(`CREATE TABLE "webhook_deliveries" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "event_id" uuid NOT NULL, "endpoint_id" uuid NOT NULL, "status" character varying(12) NOT NULL DEFAULT 'pending', "attempt_count" integer NOT NULL DEFAULT '0', "next_attempt_at" TIMESTAMP WITH TIME ZONE, "lease_owner" character varying(100), "fence" bigint NOT NULL DEFAULT '0', "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_535dd409947fb6d8fc6dfc0112a" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE INDEX "webhook_deliveries_endpoint_idx" ON "webhook_deliveries"  ("endpoint_id") `);
        await queryRunner.query(`CREATE INDEX "webhook_deliveries_event_idx" ON "webhook_deliveries"  ("event_id") `);
        await queryRunner.query(`CREATE INDEX "webhook_deliveries_work_idx" ON "webhook_deliveries"  ("next_attempt_at") WHERE next_attempt_at IS NOT NULL`);
        await queryRunner.query(`CREATE INDEX "webhook_deliveries_lease_owner_idx" ON "webhook_deliveries"  ("lease_owner") WHERE lease_owner IS NOT NULL`);
        await queryRunner.query(`CREATE TABLE "webhook_endpoints" ("id" uuid NOT NULL, "url" character varying(2048) NOT NULL, "events" character varying(40) array NOT NULL, "description" character varying(1000), "enabled" boolean NOT NULL DEFAULT true, "secret_ciphertext" text NOT NULL, "previous_secret_ciphertext" text, "previous_secret_expires_at" TIMESTAMP WITH TIME ZONE, "consecutive_failures" integer NOT NULL DEFAULT '0', "seq" BIGSERIAL NOT NULL, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_054c4cfb95223732f5939d2d546" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE INDEX "webhook_endpoints_created_idx" ON "webhook_endpoints"  ("created_at", "seq") `);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`DROP INDEX "public"."webhook_endpoints_created_idx"`);
        await queryRunner.query(`DROP TABLE "webhook_endpoints"`);
        await queryRunner.query(`DROP INDEX "public"."webhook_deliveries_lease_owner_idx"`);
        await queryRunner.query(`DROP INDEX "public"."webhook_deliveries_work_idx"`);
        await queryRunner.query(`DROP INDEX "public"."webhook_deliveries_event_idx"`);
        await queryRunner.query(`DROP INDEX "public"."webhook_deliveries_endpoint_idx"`);
        await queryRunner.query(`DROP TABLE "webhook_deliveries"`);
        await queryRunner.query(`DROP INDEX "public"."webhook_attempts_endpoint_idx"`);
        await queryRunner.query(`DROP INDEX "public"."webhook_attempts_created_idx"`);
        await queryRunner.query(`DROP TABLE "webhook_attempts"`);
        await queryRunner.query(`DROP INDEX "public"."events_created_idx"`);
        await queryRunner.query(`DROP INDEX "public"."events_type_created_idx"`);
        await queryRunner.query(`DROP TABLE "events"`);
    }

}
