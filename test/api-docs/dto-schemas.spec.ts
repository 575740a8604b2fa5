import { DECORATORS } from '@nestjs/swagger';
import type { OpenAPIObject, OperationObject, ParameterObject, SchemaObject } from '@nestjs/swagger';
import { getMetadataStorage } from 'class-validator';
import type { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { COMMITTED_DOCUMENT_PATH } from '../../src/common/api-docs/api-description';

const ROOT = join(__dirname, '..', '..');
const SRC = join(ROOT, 'src');

/** Query DTOs are no schema of their own: their fields are the parameters of the list that takes them. */
const QUERY_DTOS: Record<string, string> = {
  ListQueryDto: 'GET /api/v1/payouts/destinations',
  ListCustomersQueryDto: 'GET /api/v1/customers',
  ListPlansQueryDto: 'GET /api/v1/plans',
  ListCouponsQueryDto: 'GET /api/v1/coupons',
  ListSubscriptionsQueryDto: 'GET /api/v1/subscriptions',
  ListChargesQueryDto: 'GET /api/v1/charges',
  ListPayoutsQueryDto: 'GET /api/v1/payouts',
  ListRefundsQueryDto: 'GET /api/v1/refunds',
  ListEventsQueryDto: 'GET /api/v1/events',
  ListPendingItemsQueryDto: 'GET /api/v1/customers/{id}/pending-items',
  ListWebhookAttemptsQueryDto: 'GET /api/v1/webhook-endpoints/{id}/deliveries',
  RevenueReportQueryDto: 'GET /api/v1/reports/revenue',
};

/** Query DTOs of routes that are no list: no cursor, limit or created range of their own. */
const PLAIN_QUERY_DTOS = new Set(['RevenueReportQueryDto']);

/** Every *.dto.ts of the daemon (the sandbox is a separate app with an API of its own). */
function dtoFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return path === join(SRC, 'sandbox') ? [] : dtoFiles(path);
    return entry.name.endsWith('.dto.ts') ? [path] : [];
  });
}

interface Dto {
  file: string;
  name: string;
  rules: Map<string, ValidationMetadata[]>;
}

/** The validated classes of every DTO file, with their class-validator rules by property. */
function validatedDtos(): Dto[] {
  const dtos: Dto[] = [];
  for (const file of dtoFiles(SRC)) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const exported = require(file) as Record<string, unknown>;
    for (const value of Object.values(exported)) {
      if (typeof value !== 'function') continue;
      const metadata = getMetadataStorage().getTargetValidationMetadatas(value, '', true, false);
      if (metadata.length === 0) continue;
      const rules = new Map<string, ValidationMetadata[]>();
      for (const m of metadata) rules.set(m.propertyName, [...(rules.get(m.propertyName) ?? []), m]);
      const schemaOptions = (Reflect.getMetadata(DECORATORS.API_SCHEMA, value) ?? []) as { name?: string }[];
      dtos.push({ file: relative(ROOT, file), name: schemaOptions.map((o) => o.name).filter(Boolean).pop() ?? value.name, rules });
    }
  }
  return dtos;
}

/** What the schema must say for each class-validator rule that has an OpenAPI counterpart. */
function expectedFromRules(rules: ValidationMetadata[]): Record<string, unknown> {
  const expected: Record<string, unknown> = {};
  for (const rule of rules) {
    const [first, second] = (rule.constraints ?? []) as unknown[];
    if (rule.each) continue;
    switch (rule.name) {
      case 'isLength':
        Object.assign(expected, { minLength: first, maxLength: second });
        break;
      case 'maxLength':
        expected.maxLength = first;
        break;
      case 'min':
        expected.minimum = first;
        break;
      case 'max':
        expected.maximum = first;
        break;
      case 'arrayMinSize':
        expected.minItems = first;
        break;
      case 'arrayMaxSize':
        expected.maxItems = first;
        break;
      case 'isIn':
        expected.enum = first;
        break;
      case 'matches':
        expected.pattern = (first as RegExp).source;
        break;
      case 'isInt':
        expected.type = 'integer';
        break;
      case 'isBoolean':
        expected.type = 'boolean';
        break;
      case 'isUuid':
        expected.format = 'uuid';
        break;
      case 'isIso8601':
        expected.format = 'date-time';
        break;
      case 'isEmail':
        expected.format = 'email';
        break;
    }
  }
  return expected;
}

describe('Every request DTO is described as it validates', () => {
  const document = JSON.parse(readFileSync(join(ROOT, COMMITTED_DOCUMENT_PATH), 'utf8')) as OpenAPIObject;
  const schemas = document.components?.schemas as Record<string, SchemaObject>;
  const dtos = validatedDtos();

  /** The described fields of a DTO: its component schema, or for a query DTO the parameters of its list. */
  function described(dto: Dto): { properties: Record<string, SchemaObject>; required: string[] } {
    const route = QUERY_DTOS[dto.name];
    if (route) {
      const [method, path] = route.split(' ');
      const operation = document.paths[path][method.toLowerCase() as 'get'] as OperationObject;
      const params = (operation.parameters ?? []) as ParameterObject[];
      return {
        properties: Object.fromEntries(params.filter((p) => p.in === 'query').map((p) => [p.name, p.schema as SchemaObject])),
        required: params.filter((p) => p.in === 'query' && p.required).map((p) => p.name),
      };
    }
    const schema = schemas[dto.name];
    if (!schema) throw new Error(`${dto.file}: ${dto.name} is in no schema of ${COMMITTED_DOCUMENT_PATH} (a query DTO belongs in QUERY_DTOS)`);
    return { properties: (schema.properties ?? {}) as Record<string, SchemaObject>, required: schema.required ?? [] };
  }

  it('finds the DTOs', () => {
    expect(dtos.length).toBeGreaterThan(15);
  });

  it('documents exactly the validated fields, optional exactly when the DTO lets them be absent', () => {
    for (const dto of dtos) {
      const { properties, required } = described(dto);
      const validated = [...dto.rules.keys()].sort();
      const inherited = QUERY_DTOS[dto.name] && !PLAIN_QUERY_DTOS.has(dto.name) ? ['createdAfter', 'createdBefore', 'cursor', 'limit'] : [];
      expect({ dto: dto.name, fields: Object.keys(properties).sort() }).toEqual({ dto: dto.name, fields: [...new Set([...validated, ...inherited])].sort() });
      for (const [field, rules] of dto.rules) {
        const optional = rules.some((r) => r.type === 'conditionalValidation');
        expect({ dto: dto.name, field, required: required.includes(field) }).toEqual({ dto: dto.name, field, required: !optional });
      }
    }
  });

  it('states the bounds, patterns, enums, types and formats its validators enforce', () => {
    let compared = 0;
    for (const dto of dtos) {
      const { properties } = described(dto);
      for (const [field, rules] of dto.rules) {
        const expected = expectedFromRules(rules);
        const schema = properties[field];
        const stated = Object.fromEntries(Object.keys(expected).map((key) => [key, (schema as Record<string, unknown>)[key]]));
        expect({ dto: dto.name, field, schema: stated }).toEqual({ dto: dto.name, field, schema: expected });
        compared += Object.keys(expected).length;
      }
    }
    expect(compared).toBeGreaterThan(50);
  });
});
