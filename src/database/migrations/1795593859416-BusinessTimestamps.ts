import { MigrationInterface, QueryRunner } from "typeorm";

/**
 * Times the API shows are business time (the Clock) from now on, set by the services. The customer follower counts
 * ages on real time, so customers and bindings keep the real time of their insert apart; rows made before this
 * migration were stamped by the database, so their created_at is that real time.
 */
export class BusinessTimestamps1795593859416 implements MigrationInterface {
    name = 'BusinessTimestamps1795593859416'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "customer_bindings" ADD "real_created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now()`);
        await queryRunner.query(`ALTER TABLE "customers" ADD "real_created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now()`);
        await queryRunner.query(`UPDATE "customer_bindings" SET "real_created_at" = "created_at"`);
        await queryRunner.query(`UPDATE "customers" SET "real_created_at" = "created_at"`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "customers" DROP COLUMN "real_created_at"`);
        await queryRunner.query(`ALTER TABLE "customer_bindings" DROP COLUMN "real_created_at"`);
    }

}
