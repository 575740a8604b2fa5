import { AdvancedConsoleLogger, QueryRunner } from 'typeorm';
import { noteStatement } from './write-scope';

/**
 * TypeORM's console logger, which also tells the write scope of the caller (write-scope.ts) about each statement
 * as it is sent: TypeORM calls it in the caller's async context, on the connection the statement goes to.
 */
export class StatementNotingLogger extends AdvancedConsoleLogger {
  override logQuery(query: string, parameters?: unknown[], queryRunner?: QueryRunner): void {
    noteStatement(query, queryRunner?.isTransactionActive ?? false);
    super.logQuery(query, parameters, queryRunner);
  }
}
