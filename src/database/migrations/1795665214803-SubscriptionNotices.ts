import { MigrationInterface, QueryRunner } from "typeorm";

/** Notices before money moves (subscription.renewal_upcoming, subscription.trial_ending): one row per subscription, kind and instant, so each goes out once. */
export class SubscriptionNotices1795665214803 implements MigrationInterface {
    name = 'SubscriptionNotices1795665214803'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE TABLE "subscription_notices" ("subscription_id" uuid NOT NULL, "kind" character varying(20) NOT NULL, "due_at" TIMESTAMP WITH TIME ZONE NOT NULL, "sent_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_bafbb03306d93b24989f0acde5a" PRIMARY KEY ("subscription_id", "kind", "due_at"))`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`DROP TABLE "subscription_notices"`);
    }

}
