import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ERROR_CODE_NAMES } from '../../src/common/errors/error-codes';
import { REPO_ROOT, repositoryFiles } from './markdown';

const read = (file: string) => readFileSync(join(REPO_ROOT, file), 'utf8');

/** `METHOD /path` of every operation in the committed API document (which a test keeps in step with the code). */
function documentedRoutes(): string[] {
  const document = JSON.parse(read('docs/openapi.json')) as { paths: Record<string, Record<string, unknown>> };
  return Object.entries(document.paths).flatMap(([path, item]) =>
    Object.keys(item)
      .filter((method) => ['get', 'put', 'post', 'patch', 'delete'].includes(method))
      .map((method) => `${method.toUpperCase()} ${path}`),
  );
}

/** The name of every Prometheus metric the daemon registers, read from the code that registers them. */
function registeredMetricNames(): string[] {
  const names = new Set<string>();
  for (const file of repositoryFiles()) {
    if (!file.startsWith('src/') || !file.endsWith('.ts') || file.endsWith('.spec.ts')) continue;
    const text = read(file);
    if (!/metrics\.(counter|gauge|histogram)\(/.test(text)) continue;
    for (const match of text.matchAll(/\bname(?::|\s*=)\s*'([a-z][a-z0-9]*(?:_[a-z0-9]+)+)'/g)) names.add(match[1]);
  }
  return [...names].sort();
}

describe('the docs keep in step with the code', () => {
  it('the admin API guide shows every route of the API document', () => {
    const guide = read('docs/admin-api.md');
    const routes = documentedRoutes();
    expect(routes.length).toBeGreaterThan(40);
    expect(routes.filter((route) => !guide.includes(`\`${route}`))).toEqual([]);
  });

  it('the admin API guide lists every error code', () => {
    const guide = read('docs/admin-api.md');
    expect(ERROR_CODE_NAMES.filter((code) => !guide.includes(`| \`${code}\` |`))).toEqual([]);
  });

  it('the operations guide names every metric the daemon registers', () => {
    const guide = read('docs/operations.md');
    const names = registeredMetricNames();
    expect(names).toEqual(expect.arrayContaining(['billing_charges_total', 'billing_provider_requests_total', 'work_claimed_total']));
    expect(names.filter((name) => !guide.includes(`| \`${name}\` |`))).toEqual([]);
  });

  it("the README's environment table has every variable the daemon reads", () => {
    const readme = read('README.md');
    // The properties of the schema every variable is validated by, as declared (`PORT: number = 3000;`, `ADMIN_TOKEN?: string;`).
    const variables = [...read('src/config/env.schema.ts').matchAll(/^ {2}([A-Z][A-Z0-9_]*)\??:/gm)].map((match) => match[1]);
    expect(variables).toEqual(expect.arrayContaining(['PORT', 'ADMIN_TOKEN', 'PROVIDER_URL', 'SCHEDULER_ENABLED']));
    const missing = variables.filter((name) => !new RegExp(`^\\|[^|\\n]*\`${name}\``, 'm').test(readme));
    expect(missing).toEqual([]);
  });
});
