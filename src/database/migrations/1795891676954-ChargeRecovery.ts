import { MigrationInterface, QueryRunner } from "typeorm";

export class ChargeRecovery1795891676954 implements MigrationInterface {
    name = 'ChargeRecovery1795891676954'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "charges" ADD "dunning_binding_id" character varying(40)`);
        await queryRunner.query(`ALTER TABLE "charges" ADD "dunning_strategy" character varying(8)`);
        await queryRunner.query(`ALTER TABLE "charges" ADD "recovered_by" character varying(16)`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "charges" DROP COLUMN "recovered_by"`);
        await queryRunner.query(`ALTER TABLE "charges" DROP COLUMN "dunning_strategy"`);
        await queryRunner.query(`ALTER TABLE "charges" DROP COLUMN "dunning_binding_id"`);
    }

}
