import { MigrationInterface, QueryRunner } from "typeorm";

/** Why a charge waits for its nextAttemptAt when a dunning rule moved it there (allowed hours, attempt cap). */
export class ChargeWaitingFor1795869825247 implements MigrationInterface {
    name = 'ChargeWaitingFor1795869825247'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "charges" ADD "waiting_for" character varying(16)`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "charges" DROP COLUMN "waiting_for"`);
    }

}
