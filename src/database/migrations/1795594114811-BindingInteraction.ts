import { MigrationInterface, QueryRunner } from "typeorm";

/** A binding keeps the 3-D Secure redirect the provider asks of the payer while it waits for it. */

export class BindingInteraction1795594114811 implements MigrationInterface {
    name = 'BindingInteraction1795594114811'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "customer_bindings" ADD "interaction" jsonb`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "customer_bindings" DROP COLUMN "interaction"`);
    }

}
