import { MigrationInterface, QueryRunner } from "typeorm";

/** Operator console sessions: only an HMAC of each session id, keyed by the admin token. */

export class ConsoleSessions1795644538142 implements MigrationInterface {
    name = 'ConsoleSessions1795644538142'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE TABLE "console_sessions" ("key_hash" character(64) NOT NULL, "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_b8b5af4a933d6d424fff7a2f63d" PRIMARY KEY ("key_hash"))`);
        await queryRunner.query(`CREATE INDEX "console_sessions_expires_idx" ON "console_sessions"  ("expires_at") `);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`DROP INDEX "public"."console_sessions_expires_idx"`);
        await queryRunner.query(`DROP TABLE "console_sessions"`);
    }

}
