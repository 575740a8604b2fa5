import { MigrationInterface, QueryRunner } from "typeorm";

/** Coupons (issue 41): the coupons and their redemptions, the discount in force on a subscription, a charge's discountAmount. */

export class Coupons1795882211287 implements MigrationInterface {
    name = 'Coupons1795882211287'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE TABLE "coupon_redemptions" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "coupon_id" uuid NOT NULL, "subscription_id" uuid NOT NULL, "customer_id" uuid NOT NULL, "redeemed_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_5086813ea980d21dbeb190ed0a7" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE INDEX "coupon_redemptions_customer_idx" ON "coupon_redemptions"  ("customer_id") `);
        await queryRunner.query(`CREATE INDEX "coupon_redemptions_coupon_idx" ON "coupon_redemptions"  ("coupon_id") `);
        await queryRunner.query(`CREATE TABLE "coupons" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "code" character varying(32) NOT NULL, "name" character varying(100) NOT NULL, "percent_off" integer, "amount_off" bigint, "currency" character(3), "duration" character varying(10) NOT NULL, "duration_periods" integer, "applies_to_plans" uuid array, "max_redemptions" integer, "times_redeemed" integer NOT NULL DEFAULT '0', "redeem_by" TIMESTAMP WITH TIME ZONE, "first_time_only" boolean NOT NULL DEFAULT false, "status" character varying(10) NOT NULL, "seq" BIGSERIAL NOT NULL, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_d7ea8864a0150183770f3e9a8cb" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE INDEX "coupons_status_idx" ON "coupons"  ("status", "created_at", "seq") `);
        await queryRunner.query(`CREATE INDEX "coupons_created_idx" ON "coupons"  ("created_at", "seq") `);
        await queryRunner.query(`CREATE UNIQUE INDEX "coupons_code_uq" ON "coupons"  ("code") `);
        await queryRunner.query(`ALTER TABLE "charges" ADD "discount_amount" bigint NOT NULL DEFAULT '0'`);
        await queryRunner.query(`ALTER TABLE "subscriptions" ADD "discount" jsonb`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "subscriptions" DROP COLUMN "discount"`);
        await queryRunner.query(`ALTER TABLE "charges" DROP COLUMN "discount_amount"`);
        await queryRunner.query(`DROP INDEX "public"."coupons_code_uq"`);
        await queryRunner.query(`DROP INDEX "public"."coupons_created_idx"`);
        await queryRunner.query(`DROP INDEX "public"."coupons_status_idx"`);
        await queryRunner.query(`DROP TABLE "coupons"`);
        await queryRunner.query(`DROP INDEX "public"."coupon_redemptions_coupon_idx"`);
        await queryRunner.query(`DROP INDEX "public"."coupon_redemptions_customer_idx"`);
        await queryRunner.query(`DROP TABLE "coupon_redemptions"`);
    }

}
