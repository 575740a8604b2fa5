import { MigrationInterface, QueryRunner } from "typeorm";

export class ApiKeys1795882071458 implements MigrationInterface {
    name = 'ApiKeys1795882071458'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE TABLE "api_keys" ("id" uuid NOT NULL, "name" character varying(100) NOT NULL, "scopes" character varying(40) array NOT NULL, "key_hash" character(64) NOT NULL, "created_by" jsonb NOT NULL, "expires_at" TIMESTAMP(3) WITH TIME ZONE, "last_used_at" TIMESTAMP(3) WITH TIME ZONE, "revoked_at" TIMESTAMP(3) WITH TIME ZONE, "seq" BIGSERIAL NOT NULL, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_5c8a79801b44bd27b79228e1dad" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE UNIQUE INDEX "api_keys_hash_idx" ON "api_keys"  ("key_hash") `);
        await queryRunner.query(`CREATE INDEX "api_keys_created_idx" ON "api_keys"  ("created_at", "seq") `);
        await queryRunner.query(`ALTER TABLE "console_sessions" ADD "api_key_id" uuid`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "console_sessions" DROP COLUMN "api_key_id"`);
        await queryRunner.query(`DROP INDEX "public"."api_keys_created_idx"`);
        await queryRunner.query(`DROP INDEX "public"."api_keys_hash_idx"`);
        await queryRunner.query(`DROP TABLE "api_keys"`);
    }

}
