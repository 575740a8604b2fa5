import Ajv2020, { ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';

type Json = Record<string, unknown>;

export interface CheckedResponse {
  method: string;
  /** The path template of the operation, as the document names it (`/api/v1/plans/{id}`). */
  path: string;
  status: number;
  contentType: string;
  body: unknown;
}

/**
 * Checks answers against the OpenAPI 3.1 document with ajv in strict mode (JSON Schema 2020-12, the dialect 3.1
 * schemas are written in): an unknown keyword, a loose type or a `required` naming no property is an error of the
 * document, not something to skip. The OpenAPI vocabulary's annotations (`example`, …) are declared as such.
 */
export class DocumentValidator {
  private readonly ajv = new Ajv2020({ strict: true, allErrors: true });
  private readonly compiled = new Map<string, ValidateFunction>();
  /** Every operation answered, with the statuses seen: `GET /api/v1/plans` → {200, 401}. */
  readonly seen = new Map<string, Set<number>>();
  readonly failures: string[] = [];
  checked = 0;

  constructor(private readonly document: Json) {
    addFormats(this.ajv);
    this.ajv.addVocabulary(['example', 'discriminator', 'xml', 'externalDocs']);
    const components = JSON.parse(JSON.stringify((document.components as Json).schemas).replace(/#\/components\/schemas\//g, 'components#/$defs/')) as Json;
    this.ajv.addSchema({ $id: 'components', $defs: components });
  }

  /** The operations the document describes, as `METHOD /path`. */
  operations(): string[] {
    return Object.entries(this.document.paths as Record<string, Json>).flatMap(([path, item]) =>
      ['get', 'put', 'post', 'delete', 'patch'].filter((m) => item[m]).map((m) => `${m.toUpperCase()} ${path}`),
    );
  }

  /** Records the answer; a mismatch with the document is added to `failures`. */
  check(answer: CheckedResponse): void {
    const key = `${answer.method} ${answer.path}`;
    this.seen.set(key, (this.seen.get(key) ?? new Set()).add(answer.status));
    const operation = (this.document.paths as Record<string, Json | undefined>)[answer.path]?.[answer.method.toLowerCase()] as Json | undefined;
    if (!operation) return void this.failures.push(`${key}: no such operation in the document`);
    const responses = operation.responses as Record<string, Json>;
    const documented = responses[String(answer.status)] ?? responses[`${String(answer.status)[0]}XX`] ?? responses.default;
    if (!documented) return void this.failures.push(`${key}: status ${answer.status} is not documented (${Object.keys(responses).join(', ')})`);
    const response = this.resolve(documented);
    const content = response.content as Record<string, Json> | undefined;
    if (!answer.contentType.startsWith('application/json')) {
      if (content && !Object.keys(content).some((type) => answer.contentType.startsWith(type))) {
        this.failures.push(`${key} ${answer.status}: answered ${answer.contentType}, documented ${Object.keys(content).join(', ')}`);
      }
      return;
    }
    const schema = content?.['application/json']?.schema as Json | undefined;
    if (!schema) return void this.failures.push(`${key} ${answer.status}: answered JSON, the document shows no JSON schema`);
    const validate = this.validatorFor(`${key} ${answer.status}`, schema);
    this.checked++;
    if (!validate(answer.body)) {
      const errors = (validate.errors ?? []).slice(0, 5).map((e) => `${e.instancePath || '/'} ${e.message} ${JSON.stringify(e.params)}`);
      this.failures.push(`${key} ${answer.status}: ${errors.join('; ')}`);
    }
  }

  private resolve(value: Json): Json {
    if (typeof value.$ref !== 'string') return value;
    const [, ...path] = value.$ref.split('/');
    return this.resolve(path.reduce<Json>((node, part) => node[part] as Json, this.document));
  }

  private validatorFor(name: string, schema: Json): ValidateFunction {
    let validate = this.compiled.get(name);
    if (!validate) {
      const text = JSON.stringify(schema).replace(/#\/components\/schemas\//g, 'components#/$defs/');
      validate = this.ajv.compile(JSON.parse(text) as Json);
      this.compiled.set(name, validate);
    }
    return validate;
  }
}
