import { MigrationInterface, QueryRunner } from "typeorm";

export class InvoiceDueDateIntent1795247808831 implements MigrationInterface {
    name = 'InvoiceDueDateIntent1795247808831'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "charges" ADD "invoice_due_at" TIMESTAMP WITH TIME ZONE`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "charges" DROP COLUMN "invoice_due_at"`);
    }

}
