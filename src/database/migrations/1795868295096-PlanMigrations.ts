import { MigrationInterface, QueryRunner } from "typeorm";

/**
 * Plan migrations: each a job of the work engine that walks a plan's subscriptions in creation order, by the new
 * (plan, seq) index, giving each a pending change to another plan with notice.
 */
export class PlanMigrations1795868295096 implements MigrationInterface {
    name = 'PlanMigrations1795868295096'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE TABLE "plan_migrations" ("lease_owner" character varying(100), "fence" bigint NOT NULL DEFAULT '0', "id" uuid NOT NULL, "from_plan_id" uuid NOT NULL, "to_plan_id" uuid NOT NULL, "notice_days" integer NOT NULL, "quantity_rule" character varying(8) NOT NULL DEFAULT 'keep', "status" character varying(12) NOT NULL, "cutoff_seq" bigint NOT NULL, "cursor_seq" bigint NOT NULL DEFAULT '0', "scheduled_count" integer NOT NULL DEFAULT '0', "skipped_count" integer NOT NULL DEFAULT '0', "next_run_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, "updated_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, "completed_at" TIMESTAMP(3) WITH TIME ZONE, CONSTRAINT "PK_c669f92120a6b3b4136da8a505d" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE INDEX "plan_migrations_claim_leased_idx" ON "plan_migrations"  ("next_run_at") WHERE lease_owner IS NOT NULL AND next_run_at IS NOT NULL`);
        await queryRunner.query(`CREATE INDEX "plan_migrations_claim_free_idx" ON "plan_migrations"  ("next_run_at") WHERE lease_owner IS NULL AND next_run_at IS NOT NULL`);
        await queryRunner.query(`CREATE INDEX "subscriptions_plan_seq_idx" ON "subscriptions"  ("plan_id", "seq") `);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`DROP INDEX "public"."subscriptions_plan_seq_idx"`);
        await queryRunner.query(`DROP INDEX "public"."plan_migrations_claim_free_idx"`);
        await queryRunner.query(`DROP INDEX "public"."plan_migrations_claim_leased_idx"`);
        await queryRunner.query(`DROP TABLE "plan_migrations"`);
    }

}
