import { MigrationInterface, QueryRunner } from "typeorm";

/**
 * A manual retry runs outside the dunning ladder: the charge keeps where the ladder stood while the retry waits, and
 * the attempt that carries it out is marked manual and keeps that position, which a decline of it goes back to.
 */
export class ManualRetryOutsideLadder1795866176218 implements MigrationInterface {
    name = 'ManualRetryOutsideLadder1795866176218'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "charge_attempts" ADD "manual" boolean NOT NULL DEFAULT false`);
        await queryRunner.query(`ALTER TABLE "charge_attempts" ADD "ladder_position" jsonb`);
        await queryRunner.query(`ALTER TABLE "charges" ADD "pending_manual_retry" jsonb`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "charges" DROP COLUMN "pending_manual_retry"`);
        await queryRunner.query(`ALTER TABLE "charge_attempts" DROP COLUMN "ladder_position"`);
        await queryRunner.query(`ALTER TABLE "charge_attempts" DROP COLUMN "manual"`);
    }

}
