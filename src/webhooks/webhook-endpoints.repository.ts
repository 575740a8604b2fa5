import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, In } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { Page, paginate } from '../common/http/pagination';
import { ListQueryDto } from '../common/http/list-query.dto';
import { WebhookEndpoint } from './webhook-endpoint.entity';

export type NewWebhookEndpoint = Pick<WebhookEndpoint, 'id' | 'url' | 'events' | 'description' | 'secretCiphertext'>;

/** Every statement on the `webhook_endpoints` table. */
@Injectable()
export class WebhookEndpointsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * Inserts the endpoint unless `max` exist already; answers null then. Creates take one lock in turn, so endpoints
   * created at the same moment are counted too (a count then an insert each would let every one of them in).
   */
  async insertWithinCap(values: NewWebhookEndpoint, max: number): Promise<WebhookEndpoint | null> {
    return this.dataSource.transaction(async (em) => {
      await em.query(`SELECT pg_advisory_xact_lock(hashtextextended('webhook_endpoints:create', 15))`);
      const repository = em.getRepository(WebhookEndpoint);
      if ((await repository.count()) >= max) return null;
      return repository.save(repository.create({ ...values, enabled: true }));
    });
  }

  findById(id: string): Promise<WebhookEndpoint | null> {
    return this.dataSource.getRepository(WebhookEndpoint).findOneBy({ id });
  }

  findByIds(ids: string[]): Promise<WebhookEndpoint[]> {
    return ids.length === 0 ? Promise.resolve([]) : this.dataSource.getRepository(WebhookEndpoint).findBy({ id: In(ids) });
  }

  page(query: ListQueryDto): Promise<Page<WebhookEndpoint>> {
    return paginate(this.dataSource.getRepository(WebhookEndpoint).createQueryBuilder('endpoint'), query);
  }

  /** Endpoints whose last attempts failed, most failures first, and how many there are in all. */
  async failing(limit: number): Promise<{ count: number; items: WebhookEndpoint[] }> {
    const query = this.dataSource.getRepository(WebhookEndpoint).createQueryBuilder('endpoint').where('endpoint.consecutiveFailures > 0');
    const [items, count] = await query.orderBy('endpoint.consecutiveFailures', 'DESC').addOrderBy('endpoint.seq', 'ASC').take(limit).getManyAndCount();
    return { count, items };
  }

  /** Answers the endpoint as it is after the change; null when there is none. */
  async update(id: string, changes: QueryDeepPartialEntity<WebhookEndpoint>): Promise<WebhookEndpoint | null> {
    if (Object.keys(changes).length > 0) await this.dataSource.getRepository(WebhookEndpoint).update({ id }, changes);
    return this.findById(id);
  }

  /** Answers whether there was one to delete. */
  async delete(id: string): Promise<boolean> {
    const result = await this.dataSource.getRepository(WebhookEndpoint).delete({ id });
    return (result.affected ?? 0) > 0;
  }
}
