import { MigrationInterface, QueryRunner } from "typeorm";

export class PendingItemsByCustomer1795903969200 implements MigrationInterface {
    name = 'PendingItemsByCustomer1795903969200'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE INDEX "pending_items_customer_idx" ON "pending_items"  ("customer_id", "created_at", "seq") `);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`DROP INDEX "public"."pending_items_customer_idx"`);
    }

}
