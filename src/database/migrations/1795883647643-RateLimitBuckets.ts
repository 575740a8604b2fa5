import { MigrationInterface, QueryRunner } from "typeorm";

export class RateLimitBuckets1795883647643 implements MigrationInterface {
    name = 'RateLimitBuckets1795883647643'

    public async up(queryRunner: QueryRunner): Promise<void> {
        // Edited after generation: UNLOGGED (TypeORM cannot say it). Buckets are worthless after a crash, and without WAL a
        // take flushes nothing to disk while it holds the row of a busy key.
        await queryRunner.query(`CREATE UNLOGGED TABLE "rate_limit_buckets" ("bucket" character varying(100) NOT NULL, "tokens" double precision NOT NULL, "updated_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, "allowed" boolean NOT NULL, CONSTRAINT "PK_31c2dec680369f83b289af38f2b" PRIMARY KEY ("bucket"))`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`DROP TABLE "rate_limit_buckets"`);
    }

}
