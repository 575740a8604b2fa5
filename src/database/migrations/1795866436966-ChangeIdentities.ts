import { MigrationInterface, QueryRunner } from "typeorm";

/**
 * A proration charge's identity is its invoice externalID (subscription, period, the change's place in it), no longer
 * its start: two changes at one instant made two prorations starting at that instant, and the second one broke the
 * unique (subscription, period start, kind). A period charge stays unique per (subscription, period start).
 */
export class ChangeIdentities1795866436966 implements MigrationInterface {
    name = 'ChangeIdentities1795866436966'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "charges" DROP CONSTRAINT "charges_subscription_period_kind_uq"`);
        await queryRunner.query(`CREATE UNIQUE INDEX "charges_proration_uq" ON "charges"  ("invoice_external_id") WHERE kind = 'proration'`);
        await queryRunner.query(`CREATE UNIQUE INDEX "charges_period_uq" ON "charges"  ("subscription_id", "period_start") WHERE kind = 'period'`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`DROP INDEX "public"."charges_period_uq"`);
        await queryRunner.query(`DROP INDEX "public"."charges_proration_uq"`);
        await queryRunner.query(`ALTER TABLE "charges" ADD CONSTRAINT "charges_subscription_period_kind_uq" UNIQUE ("subscription_id", "period_start", "kind")`);
    }

}
