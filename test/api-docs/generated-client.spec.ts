import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { COMMITTED_DOCUMENT_PATH } from '../../src/common/api-docs/api-description';

/**
 * An integrator's client, as the issue tracker's reviewer built one: types generated from the committed document
 * by openapi-typescript with its default options, and openapi-fetch calling every operation with the fields the
 * document shows. It must compile under `strict`, and read the answers' fields without a cast.
 */

const ROOT = join(__dirname, '..', '..');
// Inside the repository, so the generated client resolves openapi-fetch from node_modules as an integrator's would.
const OUT = join(ROOT, 'node_modules', '.cache', 'generated-client');

type Json = Record<string, unknown>;
const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

const document = JSON.parse(readFileSync(join(ROOT, COMMITTED_DOCUMENT_PATH), 'utf8')) as { paths: Record<string, Record<string, Json>>; components: Json };

function resolve(value: Json): Json {
  if (typeof value.$ref !== 'string') return value;
  const [, ...path] = value.$ref.split('/');
  return resolve(path.reduce<Json>((node, key) => node[key] as Json, document as unknown as Json));
}

/** The example with only the fields its schema requires (recursively): what a caller who leaves out every optional field sends. */
function requiredOnly(schema: Json | undefined, example: unknown): unknown {
  if (!schema || example === null || typeof example !== 'object') return example;
  const s = resolve(schema);
  const variant = (s.oneOf ?? s.anyOf ?? s.allOf) as Json[] | undefined;
  if (variant && !s.properties) return requiredOnly(variant.find((v) => resolve(v).type !== 'null'), example);
  if (Array.isArray(example)) return example.map((item) => requiredOnly(s.items as Json | undefined, item));
  const required = (s.required ?? []) as string[];
  const properties = (s.properties ?? {}) as Record<string, Json>;
  if (!s.properties) return example;
  return Object.fromEntries(Object.entries(example as Json).filter(([k]) => required.includes(k)).map(([k, v]) => [k, requiredOnly(properties[k], v)]));
}

interface Call {
  method: string;
  path: string;
  /** The path parameters and the required headers, by where they go. */
  params: Record<string, Record<string, string>>;
  body?: unknown;
}

/** For every operation: a call with its documented example body, and one with only the required fields. */
function documentedCalls(): Call[] {
  const calls: Call[] = [];
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation) continue;
      const params: Call['params'] = {};
      for (const p of ((operation.parameters ?? []) as Json[]).map(resolve)) {
        if (p.in !== 'path' && !((p.in === 'header' || p.in === 'query') && p.required)) continue;
        const where = p.in as string;
        params[where] = { ...params[where], [p.name as string]: String(p.example ?? (p.schema as Json | undefined)?.example ?? 'x') };
      }
      const media = operation.requestBody ? ((resolve(operation.requestBody as Json).content as Json | undefined)?.['application/json'] as Json | undefined) : undefined;
      if (!media) {
        calls.push({ method, path, params });
        continue;
      }
      const examples = [media.example, ...Object.values((media.examples ?? {}) as Record<string, Json>).map((e) => e.value)].filter((e) => e !== undefined);
      for (const example of examples) {
        calls.push({ method, path, params, body: example });
        calls.push({ method, path, params, body: requiredOnly(media.schema as Json, example) });
      }
    }
  }
  return calls;
}

function callSource({ method, path, params, body }: Call): string {
  const options: string[] = [];
  if (Object.keys(params).length > 0) options.push(`params: ${JSON.stringify(params)}`);
  if (body !== undefined) options.push(`body: ${JSON.stringify(body)}`);
  return `  await client.${method.toUpperCase()}(${JSON.stringify(path)}, { ${options.join(', ')} });`;
}

/** What an integrator writes by hand: the README's bodies, and the answers' fields read as their types say. */
const HAND_WRITTEN = `
export async function readme(client: Client): Promise<void> {
  const plan = await client.POST('/api/v1/plans', { body: { name: 'Pro', product: 'Pro plan', currency: 'RUB', interval: 'month', lines: [{ product: 'Seat', price: 50000 }], dunning: { retryDelays: ['1d', '2d'], finalAction: 'unpaid' } } });
  const customer = await client.POST('/api/v1/customers', { body: { email: 'payer@example.com' } });
  if (!plan.data || !customer.data) return;
  const token: string | null = customer.data.customerAccessToken;
  const form: string | undefined = customer.data.hostedFormUrl ?? undefined;
  const subscription = await client.POST('/api/v1/subscriptions', { body: { customerId: customer.data.id, planId: plan.data.id } });
  const status: 'incomplete' | 'trialing' | 'active' | 'past_due' | 'paused' | 'unpaid' | 'canceled' | undefined = subscription.data?.status;
  await client.POST('/api/v1/subscriptions/{id}/cancel', { params: { path: { id: customer.data.id } }, body: { atPeriodEnd: false } });
  const read = await client.GET('/api/v1/customers/{id}', { params: { path: { id: customer.data.id } } });
  const lastDigits: string | null | undefined = read.data?.card?.lastDigits;
  const interaction = read.data?.pendingBinding?.interaction?.url;
  const page = await client.GET('/api/v1/plans', { params: { query: { limit: 10 } } });
  const next: string | null | undefined = page.data?.nextCursor;
  const endpoint = await client.POST('/api/v1/webhook-endpoints', { body: { url: 'https://example.com/hooks' } });
  // The signing secret is a string (null only in a replay): usable without a cast.
  const secret: string | null | undefined = endpoint.data?.secret;
  const key: string = secret ? secret.slice('whsec_'.length) : '';
  const events = await client.GET('/api/v1/subscriptions/{id}/events', { params: { path: { id: customer.data.id } } });
  const from: string | null | undefined = events.data?.items[0]?.fromStatus;
  void [token, form, status, lastDigits, interaction, next, key, from];
}
`;

function clientSource(calls: Call[]): string {
  return [
    "import createClient from 'openapi-fetch';",
    "import type { paths } from './schema';",
    '',
    "const client = createClient<paths>({ baseUrl: 'http://localhost:3000', headers: { Authorization: 'Bearer token' } });",
    'type Client = typeof client;',
    '',
    'export async function everyOperation(): Promise<void> {',
    ...calls.map(callSource),
    '}',
    HAND_WRITTEN,
  ].join('\n');
}

/** The compiler's errors for the generated client, under the settings an integrator's strict project has. */
function typeErrors(entry: string): string[] {
  const program = ts.createProgram([entry], {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
    types: [],
    skipLibCheck: true,
  });
  return ts
    .getPreEmitDiagnostics(program)
    .map((d) => `${d.file ? `${d.file.fileName.replace(`${OUT}/`, '')}:${d.file.getLineAndCharacterOfPosition(d.start ?? 0).line + 1}: ` : ''}${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
}

describe('A client generated from docs/openapi.json (openapi-typescript, default options, and openapi-fetch)', () => {
  const calls = documentedCalls();

  beforeAll(() => {
    rmSync(OUT, { recursive: true, force: true });
    mkdirSync(OUT, { recursive: true });
    // The CLI as an integrator runs it, with no option but the output file.
    execFileSync(process.execPath, [join(ROOT, 'node_modules', 'openapi-typescript', 'bin', 'cli.js'), COMMITTED_DOCUMENT_PATH, '-o', join(OUT, 'schema.d.ts')], {
      cwd: ROOT,
      stdio: 'pipe',
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', NO_COLOR: '1' },
    });
  }, 60_000);

  it('calls every operation, with each documented body and with only its required fields', () => {
    const operations = Object.entries(document.paths).flatMap(([path, item]) => METHODS.filter((m) => item[m]).map((m) => `${m} ${path}`));
    expect(new Set(calls.map((c) => `${c.method} ${c.path}`))).toEqual(new Set(operations));
    expect(calls.filter((c) => c.body !== undefined).length).toBeGreaterThan(30);
  });

  it('compiles under strict, reading the answers without a cast', () => {
    writeFileSync(join(OUT, 'client.ts'), clientSource(calls));
    expect(typeErrors(join(OUT, 'client.ts'))).toEqual([]);
  }, 60_000);

  it('rejects a call the document does not allow (the check can fail)', () => {
    const wrong = `${clientSource([])}\nexport const wrong = () => client.POST('/api/v1/plans', { body: { name: 'No lines' } });\n`;
    writeFileSync(join(OUT, 'wrong.ts'), wrong);
    expect(typeErrors(join(OUT, 'wrong.ts')).join('\n')).toMatch(/wrong\.ts:\d+: .*(product|currency|interval|lines)/s);
  }, 60_000);
});
