import { MigrationInterface, QueryRunner } from "typeorm";

/** A customer remembers which binding its customer.ready announced; cards already active count as announced. */

export class OneReadyEventPerBinding1795645623865 implements MigrationInterface {
    name = 'OneReadyEventPerBinding1795645623865'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "customers" ADD "announced_binding_id" character varying(40)`);
        await queryRunner.query(`UPDATE "customers" SET "announced_binding_id" = "active_binding_id" WHERE "status" = 'ready'`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "customers" DROP COLUMN "announced_binding_id"`);
    }

}
