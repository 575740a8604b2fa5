import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { ProviderWebhook, ProviderWebhookApi, ProviderWebhookTopic } from './provider-webhook.entity';

/** A webhook the daemon wants registered at the provider. */
export interface WantedWebhook {
  api: ProviderWebhookApi;
  topic: ProviderWebhookTopic;
  scopeKey: string;
  url: string;
}

/** Every statement on `provider_webhooks`. */
@Injectable()
export class ProviderWebhooksRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Adds the wanted webhooks not recorded yet, due for registration now; replicas racing add each once. */
  async want(webhooks: WantedWebhook[]): Promise<number> {
    if (webhooks.length === 0) return 0;
    const rows: unknown[] = await this.dataSource.query(
      `INSERT INTO provider_webhooks (api, topic, scope_key, url, status, next_attempt_at)
       SELECT w.api, w.topic, w.scope_key, w.url, 'registering', now()
         FROM unnest($1::varchar[], $2::varchar[], $3::varchar[], $4::varchar[]) AS w(api, topic, scope_key, url)
       ON CONFLICT ON CONSTRAINT provider_webhooks_scope_uq DO NOTHING
       RETURNING id`,
      [webhooks.map((w) => w.api), webhooks.map((w) => w.topic), webhooks.map((w) => w.scopeKey), webhooks.map((w) => w.url)],
    );
    return rows.length;
  }

  /** Every public key the provider gave us, with the topic it was given for: a delivery must verify with a key of its own topic. */
  async publicKeys(): Promise<{ topic: ProviderWebhookTopic; publicKey: string }[]> {
    const rows: { topic: ProviderWebhookTopic; public_key: string }[] = await this.dataSource.query(
      `SELECT DISTINCT topic, public_key FROM provider_webhooks WHERE public_key IS NOT NULL`,
    );
    return rows.map((r) => ({ topic: r.topic, publicKey: r.public_key }));
  }

  /** A verified event of `topic` arrived now. */
  async touchTopic(topic: ProviderWebhookTopic): Promise<void> {
    await this.dataSource.query(`UPDATE provider_webhooks SET last_event_at = now() WHERE topic = $1 AND status = 'active'`, [topic]);
  }

  /** The topics whose webhook to `url` the provider has registered (it sends their events there). */
  async activeTopics(url: string): Promise<ProviderWebhookTopic[]> {
    const rows: { topic: ProviderWebhookTopic }[] = await this.dataSource.query(`SELECT DISTINCT topic FROM provider_webhooks WHERE status = 'active' AND url = $1`, [url]);
    return rows.map((r) => r.topic);
  }

  /** How long ago (seconds, database time) each topic's newest event arrived. */
  async eventAges(): Promise<Map<ProviderWebhookTopic, number>> {
    const rows: { topic: ProviderWebhookTopic; age: number }[] = await this.dataSource.query(
      `SELECT topic, extract(epoch FROM now() - max(last_event_at))::float8 AS age FROM provider_webhooks
        WHERE last_event_at IS NOT NULL GROUP BY topic`,
    );
    return new Map(rows.map((r) => [r.topic, Number(r.age)]));
  }

  findAll(): Promise<ProviderWebhook[]> {
    return this.dataSource.getRepository(ProviderWebhook).find({ order: { createdAt: 'ASC' } });
  }
}
