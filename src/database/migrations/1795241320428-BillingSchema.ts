import { MigrationInterface, QueryRunner } from "typeorm";

export class BillingSchema1795241320428 implements MigrationInterface {
    name = 'BillingSchema1795241320428'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE TABLE "charges" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "subscription_id" uuid NOT NULL, "customer_id" uuid NOT NULL, "period_index" integer NOT NULL, "period_start" TIMESTAMP WITH TIME ZONE NOT NULL, "period_end" TIMESTAMP WITH TIME ZONE NOT NULL, "amount" bigint NOT NULL, "currency" character(3) NOT NULL, "status" character varying(12) NOT NULL, "step" character varying(16) NOT NULL, "invoice_external_id" character varying(40) NOT NULL, "provider_invoice_id" character varying(40), "attempt_count" integer NOT NULL DEFAULT '0', "next_attempt_at" TIMESTAMP WITH TIME ZONE, "not_before" TIMESTAMP WITH TIME ZONE, "technical_failures" integer NOT NULL DEFAULT '0', "last_error_code" character varying(200), "declined_binding_id" character varying(40), "dunning_started_at" TIMESTAMP WITH TIME ZONE, "lease_owner" character varying(64), "lease_until" TIMESTAMP WITH TIME ZONE, "fence" bigint NOT NULL DEFAULT '0', "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "charges_subscription_period_uq" UNIQUE ("subscription_id", "period_start"), CONSTRAINT "PK_0c6feb10df0fa460714f8464dce" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE INDEX "charges_work_idx" ON "charges"  ("next_attempt_at") WHERE next_attempt_at IS NOT NULL`);
        await queryRunner.query(`CREATE INDEX "charges_subscription_idx" ON "charges"  ("subscription_id", "created_at") `);
        await queryRunner.query(`CREATE INDEX "charges_created_idx" ON "charges"  ("created_at", "id") `);
        await queryRunner.query(`CREATE TABLE "charge_attempts" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "charge_id" uuid NOT NULL, "number" integer NOT NULL, "external_id" character varying(40) NOT NULL, "provider_payment_id" character varying(40), "status" character varying(12) NOT NULL, "error_code" character varying(200), "attempted_at" TIMESTAMP WITH TIME ZONE NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "charge_attempts_external_id_uq" UNIQUE ("external_id"), CONSTRAINT "charge_attempts_number_uq" UNIQUE ("charge_id", "number"), CONSTRAINT "PK_1433d6563eebf6eeb696e4aa92e" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE TABLE "test_clock" ("id" integer NOT NULL, "now" TIMESTAMP WITH TIME ZONE NOT NULL, "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_0ab4a0176df64c6d747db21e34c" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE TABLE "idempotency_records" ("scope_hash" character(64) NOT NULL, "body_hash" character(64) NOT NULL, "status_code" integer, "response_body" jsonb, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_9cdcd9aec021434d31087fdc572" PRIMARY KEY ("scope_hash"))`);
        await queryRunner.query(`CREATE TABLE "customers" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "provider_customer_id" character varying(40) NOT NULL, "shop_id" character varying(40) NOT NULL, "email" character varying(100), "phone" character varying(20), "metadata" jsonb NOT NULL DEFAULT '{}', "status" character varying(10) NOT NULL, "active_binding_id" character varying(40), "card_bin" character varying(8), "card_last_digits" character varying(4), "card_payment_system" character varying(40), "last_event_id" integer, "next_sync_at" TIMESTAMP WITH TIME ZONE, "ready_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_133ec679a801fab5e070f73d3ea" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE UNIQUE INDEX "customers_provider_id_uq" ON "customers"  ("provider_customer_id") `);
        await queryRunner.query(`CREATE INDEX "customers_sync_due_idx" ON "customers"  ("next_sync_at") WHERE next_sync_at IS NOT NULL`);
        await queryRunner.query(`CREATE INDEX "customers_created_idx" ON "customers"  ("created_at", "id") `);
        await queryRunner.query(`CREATE TABLE "customer_bindings" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "customer_id" uuid NOT NULL, "provider_binding_id" character varying(40), "external_id" character varying(40), "status" character varying(10) NOT NULL, "error_code" character varying(200), "card_bin" character varying(8), "card_last_digits" character varying(4), "card_payment_system" character varying(40), "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_1558add2d6cb624b22d074aa61e" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE UNIQUE INDEX "customer_bindings_provider_id_uq" ON "customer_bindings"  ("provider_binding_id") WHERE provider_binding_id IS NOT NULL`);
        await queryRunner.query(`CREATE UNIQUE INDEX "customer_bindings_external_id_uq" ON "customer_bindings"  ("external_id") WHERE external_id IS NOT NULL`);
        await queryRunner.query(`CREATE INDEX "customer_bindings_customer_idx" ON "customer_bindings"  ("customer_id", "created_at") `);
        await queryRunner.query(`CREATE TABLE "plans" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "name" character varying(100) NOT NULL, "product" character varying(100) NOT NULL, "description" character varying(1000), "currency" character(3) NOT NULL, "interval" character varying(5) NOT NULL, "interval_count" integer NOT NULL, "trial_days" integer NOT NULL, "lines" jsonb NOT NULL, "amount" bigint NOT NULL, "shop_id" character varying(40) NOT NULL, "dunning" jsonb, "metadata" jsonb NOT NULL DEFAULT '{}', "status" character varying(10) NOT NULL DEFAULT 'active', "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_3720521a81c7c24fe9b7202ba61" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE INDEX "plans_created_idx" ON "plans"  ("created_at", "id") `);
        await queryRunner.query(`CREATE TABLE "subscriptions" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "customer_id" uuid NOT NULL, "plan_id" uuid NOT NULL, "status" character varying(12) NOT NULL, "timezone" character varying(64) NOT NULL, "start_at" TIMESTAMP WITH TIME ZONE NOT NULL, "billing_anchor" TIMESTAMP WITH TIME ZONE, "trial_ends_at" TIMESTAMP WITH TIME ZONE, "next_period_index" integer NOT NULL DEFAULT '0', "current_period_start" TIMESTAMP WITH TIME ZONE, "current_period_end" TIMESTAMP WITH TIME ZONE, "next_billing_at" TIMESTAMP WITH TIME ZONE, "cancel_at_period_end" boolean NOT NULL DEFAULT false, "canceled_at" TIMESTAMP WITH TIME ZONE, "paused_at" TIMESTAMP WITH TIME ZONE, "metadata" jsonb NOT NULL DEFAULT '{}', "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_a87248d73155605cf782be9ee5e" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE INDEX "subscriptions_due_idx" ON "subscriptions"  ("next_billing_at") WHERE next_billing_at IS NOT NULL AND status IN ('trialing', 'active', 'past_due')`);
        await queryRunner.query(`CREATE INDEX "subscriptions_customer_idx" ON "subscriptions"  ("customer_id", "created_at") `);
        await queryRunner.query(`CREATE INDEX "subscriptions_created_idx" ON "subscriptions"  ("created_at", "id") `);
        await queryRunner.query(`CREATE TABLE "subscription_events" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "subscription_id" uuid NOT NULL, "type" character varying(40) NOT NULL, "from_status" character varying(12), "to_status" character varying(12), "data" jsonb NOT NULL DEFAULT '{}', "occurred_at" TIMESTAMP WITH TIME ZONE NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_7eb5647aa3071cffad0124bceee" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE INDEX "subscription_events_subscription_idx" ON "subscription_events"  ("subscription_id", "created_at", "id") `);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`DROP INDEX "public"."subscription_events_subscription_idx"`);
        await queryRunner.query(`DROP TABLE "subscription_events"`);
        await queryRunner.query(`DROP INDEX "public"."subscriptions_created_idx"`);
        await queryRunner.query(`DROP INDEX "public"."subscriptions_customer_idx"`);
        await queryRunner.query(`DROP INDEX "public"."subscriptions_due_idx"`);
        await queryRunner.query(`DROP TABLE "subscriptions"`);
        await queryRunner.query(`DROP INDEX "public"."plans_created_idx"`);
        await queryRunner.query(`DROP TABLE "plans"`);
        await queryRunner.query(`DROP INDEX "public"."customer_bindings_customer_idx"`);
        await queryRunner.query(`DROP INDEX "public"."customer_bindings_external_id_uq"`);
        await queryRunner.query(`DROP INDEX "public"."customer_bindings_provider_id_uq"`);
        await queryRunner.query(`DROP TABLE "customer_bindings"`);
        await queryRunner.query(`DROP INDEX "public"."customers_created_idx"`);
        await queryRunner.query(`DROP INDEX "public"."customers_sync_due_idx"`);
        await queryRunner.query(`DROP INDEX "public"."customers_provider_id_uq"`);
        await queryRunner.query(`DROP TABLE "customers"`);
        await queryRunner.query(`DROP TABLE "idempotency_records"`);
        await queryRunner.query(`DROP TABLE "test_clock"`);
        await queryRunner.query(`DROP TABLE "charge_attempts"`);
        await queryRunner.query(`DROP INDEX "public"."charges_created_idx"`);
        await queryRunner.query(`DROP INDEX "public"."charges_subscription_idx"`);
        await queryRunner.query(`DROP INDEX "public"."charges_work_idx"`);
        await queryRunner.query(`DROP TABLE "charges"`);
    }

}
