import { MigrationInterface, QueryRunner } from "typeorm";

export class IdempotentResourceIds1795644453949 implements MigrationInterface {
    name = 'IdempotentResourceIds1795644453949'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "idempotency_records" ADD "resource_id" uuid`);
        await queryRunner.query(`ALTER TABLE "idempotency_records" ADD "released" boolean NOT NULL DEFAULT false`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "idempotency_records" DROP COLUMN "released"`);
        await queryRunner.query(`ALTER TABLE "idempotency_records" DROP COLUMN "resource_id"`);
    }

}
