import { MigrationInterface, QueryRunner } from "typeorm";

export class EngineWorkIndexes1795242041163 implements MigrationInterface {
    name = 'EngineWorkIndexes1795242041163'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE INDEX "charges_awaiting_card_idx" ON "charges"  ("customer_id") WHERE step = 'awaiting_card'`);
        await queryRunner.query(`CREATE INDEX "subscriptions_incomplete_idx" ON "subscriptions"  ("customer_id") WHERE status = 'incomplete'`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`DROP INDEX "public"."subscriptions_incomplete_idx"`);
        await queryRunner.query(`DROP INDEX "public"."charges_awaiting_card_idx"`);
    }

}
