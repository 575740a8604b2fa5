import request from 'supertest';
import { startTestApp, TestApp } from '../support/test-app';
import { resetDatabase } from '../support/test-database';

/** What a browser is told about the daemon's answers: JSON is never sniffed into a page, /docs is never framed. */
describe('security headers', () => {
  let t: TestApp;

  beforeAll(async () => {
    await resetDatabase();
    t = await startTestApp();
  });

  afterAll(() => t?.close());

  it('marks every JSON answer nosniff, the ones that echo a merchant text and the errors alike', async () => {
    const html = '<script>alert(1)</script>';
    const created = await t.api().post('/api/v1/plans').send({ name: html, product: html, currency: 'RUB', interval: 'month', lines: [{ product: 'Seat', price: 100 }] }).expect(201);
    const answers = [
      created,
      await t.api().get(`/api/v1/plans/${created.body.id as string}`).expect(200),
      await request(t.app.getHttpServer()).get('/api/v1/plans').expect(401),
      await t.api().get('/api/v1/no-such-route').expect(404),
      await t.api().post('/api/v1/plans').send({ name: html }).expect(400),
    ];
    for (const answer of answers) {
      expect(answer.headers['content-type']).toMatch(/^application\/json/);
      expect(answer.headers['x-content-type-options']).toBe('nosniff');
    }
    expect(created.body.name).toBe(html);
  });

  it('lets no other site frame the API docs page, where an operator pastes a token, nor run script in it', async () => {
    for (const path of ['/docs', '/docs/swagger-ui-init.js']) {
      const answer = await request(t.app.getHttpServer()).get(path).expect(200);
      expect(answer.headers['x-frame-options']).toBe('DENY');
      const policy = String(answer.headers['content-security-policy']);
      expect(policy).toContain("frame-ancestors 'none'");
      expect(policy).toContain("script-src 'self'");
      expect(policy).not.toMatch(/script-src[^;]*unsafe/);
      expect(answer.headers['x-content-type-options']).toBe('nosniff');
    }
  });
});
