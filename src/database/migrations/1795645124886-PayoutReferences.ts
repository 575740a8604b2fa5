import { MigrationInterface, QueryRunner } from "typeorm";

/** A payout may carry the merchant's own unique reference; its withdrawal's externalID derives from it. */

export class PayoutReferences1795645124886 implements MigrationInterface {
    name = 'PayoutReferences1795645124886'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "payouts" ADD "reference" character varying(64)`);
        await queryRunner.query(`CREATE UNIQUE INDEX "payouts_reference_uq" ON "payouts"  ("reference") WHERE reference IS NOT NULL`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`DROP INDEX "public"."payouts_reference_uq"`);
        await queryRunner.query(`ALTER TABLE "payouts" DROP COLUMN "reference"`);
    }

}
