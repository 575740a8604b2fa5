import { MigrationInterface, QueryRunner } from "typeorm";

export class RecoveryLinks1795891702268 implements MigrationInterface {
    name = 'RecoveryLinks1795891702268'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE TABLE "recovery_links" ("id" uuid NOT NULL, "charge_id" uuid NOT NULL, "customer_id" uuid NOT NULL, "expires_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, "revoked_at" TIMESTAMP(3) WITH TIME ZONE, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_272ddd757e19d9f052f8c8f0da7" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE INDEX "recovery_links_charge_idx" ON "recovery_links"  ("charge_id", "created_at") `);
        await queryRunner.query(`CREATE INDEX "recovery_links_live_customer_idx" ON "recovery_links"  ("customer_id") WHERE revoked_at IS NULL`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`DROP INDEX "public"."recovery_links_live_customer_idx"`);
        await queryRunner.query(`DROP INDEX "public"."recovery_links_charge_idx"`);
        await queryRunner.query(`DROP TABLE "recovery_links"`);
    }

}
