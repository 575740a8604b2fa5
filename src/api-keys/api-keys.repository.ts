import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { ListQueryDto } from '../common/http/list-query.dto';
import { Page, paginate } from '../common/http/pagination';
import { ApiKey } from './api-key.entity';

export type NewApiKey = Pick<ApiKey, 'id' | 'name' | 'scopes' | 'keyHash' | 'createdBy' | 'expiresAt'>;

/** Every statement on `api_keys`. */
@Injectable()
export class ApiKeysRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  insert(values: NewApiKey): Promise<ApiKey> {
    const repository = this.dataSource.getRepository(ApiKey);
    return repository.save(repository.create({ ...values, lastUsedAt: null, revokedAt: null }));
  }

  findById(id: string): Promise<ApiKey | null> {
    return this.dataSource.getRepository(ApiKey).findOneBy({ id });
  }

  findByHash(keyHash: string): Promise<ApiKey | null> {
    return this.dataSource.getRepository(ApiKey).findOneBy({ keyHash });
  }

  page(query: ListQueryDto): Promise<Page<ApiKey>> {
    return paginate(this.dataSource.getRepository(ApiKey).createQueryBuilder('key'), query);
  }

  /** Revokes the key (once: a second revocation keeps the first time); answers it, or null when there is none. */
  async revoke(id: string, at: Date): Promise<ApiKey | null> {
    await this.dataSource.query(`UPDATE api_keys SET revoked_at = $2 WHERE id = $1 AND revoked_at IS NULL`, [id, at]);
    return this.findById(id);
  }

  /** Notes a use, unless one was noted less than `minGapSeconds` ago (by any replica): most uses write nothing. */
  async touch(id: string, at: Date, minGapSeconds: number): Promise<void> {
    await this.dataSource.query(
      `UPDATE api_keys SET last_used_at = $2 WHERE id = $1 AND (last_used_at IS NULL OR last_used_at < $2::timestamptz - make_interval(secs => $3))`,
      [id, at, minGapSeconds],
    );
  }
}
