import { MigrationInterface, QueryRunner } from "typeorm";

/** Millisecond creation times on the paged payout tables: list cursors carry milliseconds (see plans, charges). */
export class PayoutCursorPrecision1795243600000 implements MigrationInterface {
    name = 'PayoutCursorPrecision1795243600000'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`DROP INDEX "public"."payouts_created_idx"`);
        await queryRunner.query(`ALTER TABLE "payouts" ALTER COLUMN "created_at" TYPE TIMESTAMP(3) WITH TIME ZONE`);
        await queryRunner.query(`DROP INDEX "public"."payout_destinations_created_idx"`);
        await queryRunner.query(`ALTER TABLE "payout_destinations" ALTER COLUMN "created_at" TYPE TIMESTAMP(3) WITH TIME ZONE`);
        await queryRunner.query(`CREATE INDEX "payouts_created_idx" ON "payouts"  ("created_at", "id") `);
        await queryRunner.query(`CREATE INDEX "payout_destinations_created_idx" ON "payout_destinations"  ("created_at", "id") `);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`DROP INDEX "public"."payout_destinations_created_idx"`);
        await queryRunner.query(`DROP INDEX "public"."payouts_created_idx"`);
        await queryRunner.query(`ALTER TABLE "payout_destinations" ALTER COLUMN "created_at" TYPE TIMESTAMP(6) WITH TIME ZONE`);
        await queryRunner.query(`CREATE INDEX "payout_destinations_created_idx" ON "payout_destinations" ("created_at", "id") `);
        await queryRunner.query(`ALTER TABLE "payouts" ALTER COLUMN "created_at" TYPE TIMESTAMP(6) WITH TIME ZONE`);
        await queryRunner.query(`CREATE INDEX "payouts_created_idx" ON "payouts" ("created_at", "id") `);
    }

}
