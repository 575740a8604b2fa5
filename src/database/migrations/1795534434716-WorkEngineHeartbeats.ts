import { MigrationInterface, QueryRunner } from "typeorm";

/** Claims belong to a heartbeating process (workers) instead of a timed lease; customers and destinations join the queue. */

export class WorkEngineHeartbeats1795534434716 implements MigrationInterface {
    name = 'WorkEngineHeartbeats1795534434716'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE TABLE "workers" ("id" character varying(100) NOT NULL, "host" character varying(255) NOT NULL, "pid" integer NOT NULL, "started_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "heartbeat_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_e950c9aba3bd84a4f193058d838" PRIMARY KEY ("id"))`);
        await queryRunner.query(`ALTER TABLE "charges" DROP COLUMN "lease_until"`);
        await queryRunner.query(`ALTER TABLE "payouts" DROP COLUMN "lease_until"`);
        await queryRunner.query(`ALTER TABLE "customers" ADD "lease_owner" character varying(100)`);
        await queryRunner.query(`ALTER TABLE "customers" ADD "fence" bigint NOT NULL DEFAULT '0'`);
        await queryRunner.query(`ALTER TABLE "payout_destinations" ADD "lease_owner" character varying(100)`);
        await queryRunner.query(`ALTER TABLE "payout_destinations" ADD "fence" bigint NOT NULL DEFAULT '0'`);
        await queryRunner.query(`ALTER TABLE "charges" ALTER COLUMN "lease_owner" TYPE character varying(100)`);
        await queryRunner.query(`ALTER TABLE "payouts" ALTER COLUMN "lease_owner" TYPE character varying(100)`);
        await queryRunner.query(`CREATE INDEX "charges_lease_owner_idx" ON "charges"  ("lease_owner") WHERE lease_owner IS NOT NULL`);
        await queryRunner.query(`CREATE INDEX "customers_lease_owner_idx" ON "customers"  ("lease_owner") WHERE lease_owner IS NOT NULL`);
        await queryRunner.query(`CREATE INDEX "payouts_lease_owner_idx" ON "payouts"  ("lease_owner") WHERE lease_owner IS NOT NULL`);
        await queryRunner.query(`CREATE INDEX "payout_destinations_lease_owner_idx" ON "payout_destinations"  ("lease_owner") WHERE lease_owner IS NOT NULL`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`DROP INDEX "public"."payout_destinations_lease_owner_idx"`);
        await queryRunner.query(`DROP INDEX "public"."payouts_lease_owner_idx"`);
        await queryRunner.query(`DROP INDEX "public"."customers_lease_owner_idx"`);
        await queryRunner.query(`DROP INDEX "public"."charges_lease_owner_idx"`);
        await queryRunner.query(`ALTER TABLE "payouts" ALTER COLUMN "lease_owner" TYPE character varying(64)`);
        await queryRunner.query(`ALTER TABLE "charges" ALTER COLUMN "lease_owner" TYPE character varying(64)`);
        await queryRunner.query(`ALTER TABLE "payout_destinations" DROP COLUMN "fence"`);
        await queryRunner.query(`ALTER TABLE "payout_destinations" DROP COLUMN "lease_owner"`);
        await queryRunner.query(`ALTER TABLE "customers" DROP COLUMN "fence"`);
        await queryRunner.query(`ALTER TABLE "customers" DROP COLUMN "lease_owner"`);
        await queryRunner.query(`ALTER TABLE "payouts" ADD "lease_until" TIMESTAMP WITH TIME ZONE`);
        await queryRunner.query(`ALTER TABLE "charges" ADD "lease_until" TIMESTAMP WITH TIME ZONE`);
        await queryRunner.query(`DROP TABLE "workers"`);
    }

}
