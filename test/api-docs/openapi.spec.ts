import SwaggerParser from '@apidevtools/swagger-parser';
import type { OpenAPIObject, OperationObject, ParameterObject, ReferenceObject, ResponseObject, SchemaObject } from '@nestjs/swagger';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import request from 'supertest';
import { API_DOCS_PATH, API_DOCUMENT_PATH, COMMITTED_DOCUMENT_PATH, serializeApiDocument } from '../../src/common/api-docs/api-description';
import { ERROR_CODE_NAMES, ERROR_CODES, ErrorCode } from '../../src/common/errors/error-codes';
import { SAMPLE_ID } from '../../src/common/api-docs/api-properties';
import { OPENAPI_VERSION } from '../../src/common/api-docs/openapi-3-1';
import { registeredRoutes } from '../support/registered-routes';
import { startTestApp, TestApp } from '../support/test-app';
import { resetDatabase } from '../support/test-database';
import { Scope, SCOPES } from '../../src/common/auth/scopes';

const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;
const PUBLIC_PATHS = new Set(['/health/live', '/health/ready', '/metrics', '/webhooks/provider', '/console/session']);

interface Operation {
  key: string;
  method: string;
  path: string;
  op: OperationObject;
}

function operationsOf(document: OpenAPIObject): Operation[] {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    METHODS.filter((m) => item[m]).map((m) => ({ key: `${m.toUpperCase()} ${path}`, method: m.toUpperCase(), path, op: item[m] as OperationObject })),
  );
}

function resolved<T extends object>(document: OpenAPIObject, value: T | ReferenceObject): T {
  if (!('$ref' in value)) return value;
  const [, , section, name] = value.$ref.split('/');
  return (document.components as Record<string, Record<string, T>>)[section][name];
}

/** Up to ten JSON paths where two documents differ, so a stale copy says what changed. */
function differences(a: unknown, b: unknown, path = '', out: string[] = []): string[] {
  if (out.length >= 10) return out;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) {
    if (JSON.stringify(a) !== JSON.stringify(b)) out.push(`${path || '/'}: ${JSON.stringify(a)?.slice(0, 80)} ≠ ${JSON.stringify(b)?.slice(0, 80)}`);
    return out;
  }
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const key of keys) differences((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key], `${path}/${key}`, out);
  return out;
}

describe('The API description (OpenAPI 3) served at /openapi.json', () => {
  let t: TestApp;
  let document: OpenAPIObject;

  beforeAll(async () => {
    await resetDatabase();
    t = await startTestApp({ env: { TEST_CLOCK: 'true' } });
    // Public: fetched without the token.
    const res = await request(t.app.getHttpServer()).get(API_DOCUMENT_PATH).expect(200).expect('content-type', /application\/json/);
    document = res.body as OpenAPIObject;
  });
  afterAll(() => t?.close());

  it('validates as OpenAPI 3.1', async () => {
    expect(document.openapi).toBe(OPENAPI_VERSION);
    // The validator dereferences in place: it gets its own copy.
    await expect(SwaggerParser.validate(structuredClone(document) as never)).resolves.toBeDefined();
  });

  it('says what every object holds: no bare `type: object` (a `string | null` property left without its type)', () => {
    const bare: string[] = [];
    const walk = (node: unknown, path: string): void => {
      if (typeof node !== 'object' || node === null) return;
      const schema = node as SchemaObject & Record<string, unknown>;
      if (schema.type === 'object' && !schema.properties && schema.additionalProperties === undefined && !schema.allOf && !schema.oneOf) bare.push(path);
      for (const [key, value] of Object.entries(schema)) if (key !== 'example' && key !== 'examples') walk(value, `${path}/${key}`);
    };
    walk(document, '#');
    expect(bare).toEqual([]);
  });

  it('describes every route the app registered, and nothing else', () => {
    const isDescription = (path: string) => path === API_DOCUMENT_PATH || path === API_DOCS_PATH || path.startsWith(`${API_DOCS_PATH}/`);
    // The recovery page (/pay/:token) is HTML for customers, not the API: docs/recovery-links.md describes it.
    const isRecoveryPage = (path: string) => path.startsWith('/pay/');
    const registered = registeredRoutes(t.app)
      .filter((r) => !isDescription(r.path) && !isRecoveryPage(r.path))
      .map((r) => `${r.method} ${r.path.replace(/:([A-Za-z]+)/g, '{$1}')}`);
    const documented = operationsOf(document).map((o) => o.key);
    expect(registered.length).toBeGreaterThan(30);
    expect([...new Set(registered)].sort()).toEqual([...documented].sort());
  });

  it('needs the bearer token (or a key with the scope it names) on every admin route and on none of the public ones', () => {
    expect(document.components?.securitySchemes?.adminToken).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(document.security).toEqual([{ adminToken: [] }]);
    for (const { key, path, op } of operationsOf(document)) {
      // An admin operation names the scope an API key needs, as `x-scope` and in its security requirement.
      const scope = (op as { 'x-scope'?: string })['x-scope'];
      expect({ key, security: op.security }).toEqual({ key, security: PUBLIC_PATHS.has(path) ? [] : [{ adminToken: [scope] }] });
      if (!PUBLIC_PATHS.has(path)) expect({ key, scope: SCOPES.includes(scope as Scope) }).toEqual({ key, scope: true });
    }
  });

  it('gives every operation a summary, its parameters, its body, an answer with an example, and its errors', () => {
    for (const { key, method, path, op } of operationsOf(document)) {
      const statuses = Object.keys(op.responses);
      const success = statuses.find((s) => s.startsWith('2')) as string;
      const answer = resolved<ResponseObject>(document, op.responses[success] as ResponseObject | ReferenceObject);
      const json = answer.content?.['application/json'];
      const params = (op.parameters ?? []).map((p) => resolved<ParameterObject>(document, p));
      expect({ key, summary: typeof op.summary === 'string' && op.summary.length > 0, success: success !== undefined }).toEqual({ key, summary: true, success: true });
      if (path !== '/metrics') expect({ key, schema: json?.schema !== undefined, example: json?.example !== undefined }).toEqual({ key, schema: true, example: true });
      if (!PUBLIC_PATHS.has(path)) expect({ key, statuses }).toEqual({ key, statuses: expect.arrayContaining(['401', '503']) });
      if (path.includes('{id}')) {
        expect({ key, statuses }).toEqual({ key, statuses: expect.arrayContaining(['400', '404']) });
        expect({ key, id: params.find((p) => p.in === 'path' && p.name === 'id')?.schema }).toEqual({ key, id: expect.objectContaining({ format: 'uuid' }) });
      }
      if (method === 'POST' || method === 'PATCH') {
        const body = op.requestBody && resolved(document, op.requestBody);
        expect({ key, body: body?.content?.['application/json']?.schema !== undefined }).toEqual({ key, body: true });
        expect({ key, statuses }).toEqual({ key, statuses: expect.arrayContaining(['400', '413', '415']) });
      }
      // The provider's webhook is not an admin POST: it takes no Idempotency-Key (a repeated event is a no-op by itself).
      if (method === 'POST' && !PUBLIC_PATHS.has(path)) {
        expect({ key, header: params.find((p) => p.in === 'header' && p.name === 'Idempotency-Key')?.required }).toEqual({ key, header: false });
        expect({ key, statuses }).toEqual({ key, statuses: expect.arrayContaining(['409']) });
      }
    }
  });

  it('documents every error answer with the Error schema and an example per code that goes with its status', () => {
    let checked = 0;
    for (const { key, op } of operationsOf(document)) {
      for (const [status, ref] of Object.entries(op.responses)) {
        if (Number(status) < 400 || key === 'GET /health/ready') continue;
        const media = resolved<ResponseObject>(document, ref as ResponseObject | ReferenceObject).content?.['application/json'];
        expect({ key, status, schema: media?.schema }).toEqual({ key, status, schema: { $ref: '#/components/schemas/Error' } });
        const examples = Object.values(media?.examples ?? {}).map((e) => (e as { value: { statusCode: number; code: ErrorCode } }).value);
        expect(examples.length).toBeGreaterThan(0);
        for (const example of examples) {
          expect({ key, status, example }).toEqual({
            key,
            status,
            example: expect.objectContaining({ statusCode: Number(status), error: expect.any(String), message: expect.anything(), code: expect.any(String) }),
          });
          expect({ key, code: example.code, status: ERROR_CODES[example.code]?.status }).toEqual({ key, code: example.code, status: Number(status) });
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(100);
  });

  it('lists every error code with its meaning in the Error schema', () => {
    const schemas = document.components?.schemas as Record<string, SchemaObject>;
    expect(schemas.ErrorCode.enum).toEqual(ERROR_CODE_NAMES);
    const error = schemas.Error;
    expect(error.required).toEqual(expect.arrayContaining(['statusCode', 'error', 'message', 'code']));
    const description = (error.properties?.code as SchemaObject).description ?? '';
    for (const code of ERROR_CODE_NAMES) expect(description).toContain(`\`${code}\``);
  });

  it('answers what it documents: every required field there, no field it does not name', async () => {
    const schemas = document.components?.schemas as Record<string, SchemaObject>;
    const expectShape = (name: string, body: Record<string, unknown>) => {
      const schema = schemas[name];
      const keys = Object.keys(body).sort();
      expect({ name, missing: (schema.required ?? []).filter((k) => !keys.includes(k)), unnamed: keys.filter((k) => !(k in (schema.properties ?? {}))) }).toEqual({
        name,
        missing: [],
        unnamed: [],
      });
    };
    const plan = await t.api().post('/api/v1/plans').send({ name: 'P', product: 'P', currency: 'RUB', interval: 'month', lines: [{ product: 'x', price: 100 }] }).expect(201);
    expectShape('Plan', plan.body);
    expectShape('PlanLine', plan.body.lines[0]);
    const customer = await t.api().post('/api/v1/customers').send({ email: 'shape@example.com' }).expect(201);
    expectShape('CreatedCustomer', customer.body);
    expectShape('Customer', (await t.api().get(`/api/v1/customers/${customer.body.id}`).expect(200)).body);
    const subscription = await t.api().post('/api/v1/subscriptions').send({ customerId: customer.body.id, planId: plan.body.id }).expect(201);
    expectShape('Subscription', subscription.body);
    expectShape('SubscriptionEvent', (await t.api().get(`/api/v1/subscriptions/${subscription.body.id}/events`).expect(200)).body.items[0]);
    expectShape('BillingRun', (await t.api().post('/api/v1/billing/run').expect(200)).body);
    expectShape('TestClock', (await t.api().get('/api/v1/test-clock').expect(200)).body);
    expectShape('Error', (await t.api().post('/api/v1/plans').send({ lines: [] }).expect(400)).body);
    expectShape('Liveness', (await request(t.app.getHttpServer()).get('/health/live').expect(200)).body);
  });

  it('shows request examples that the API accepts as valid input', async () => {
    let sent = 0;
    for (const { key, method, path, op } of operationsOf(document)) {
      const media = op.requestBody && resolved(document, op.requestBody).content?.['application/json'];
      if (!media) continue;
      const named = Object.entries(media.examples ?? {}).map(([name, e]) => [name, (e as { value: unknown }).value] as const);
      const examples = media.example !== undefined ? [['example', media.example] as const, ...named] : named;
      for (const [name, example] of examples) {
        const res = await t.api()[method.toLowerCase() as 'post' | 'patch'](path.replace('{id}', SAMPLE_ID)).send(example as object);
        // Unknown ids and the sandbox's refusals are fine here: only a refusal of the input's shape is wrong.
        const refused = [400, 413, 415].includes(res.status);
        expect({ key, name, refused, body: refused ? res.body : undefined }).toEqual({ key, name, refused: false, body: undefined });
        sent++;
      }
    }
    expect(sent).toBeGreaterThan(15);
  });

  it('is committed as docs/openapi.json, exactly as the code produces it', () => {
    const committedText = readFileSync(join(__dirname, '..', '..', COMMITTED_DOCUMENT_PATH), 'utf8');
    const committed = JSON.parse(committedText) as unknown;
    const changed = differences(committed, document);
    if (changed.length > 0 || committedText !== serializeApiDocument(document)) {
      throw new Error(
        `${COMMITTED_DOCUMENT_PATH} is not what the code produces; regenerate it with \`npm run openapi\` and commit it.\n` +
          `Differences (committed ≠ served):\n  ${changed.join('\n  ') || 'formatting or key order only'}`,
      );
    }
  });
});
