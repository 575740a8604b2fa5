import { MigrationInterface, QueryRunner } from "typeorm";

export class ChangeActors1795883362136 implements MigrationInterface {
    name = 'ChangeActors1795883362136'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "events" ADD "actor" jsonb NOT NULL DEFAULT '{"type": "system"}'`);
        await queryRunner.query(`ALTER TABLE "subscription_events" ADD "actor" jsonb NOT NULL DEFAULT '{"type": "system"}'`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "subscription_events" DROP COLUMN "actor"`);
        await queryRunner.query(`ALTER TABLE "events" DROP COLUMN "actor"`);
    }

}
