import type { OpenAPIObject } from '@nestjs/swagger';

/**
 * The document is published as OpenAPI 3.1, whose schemas are plain JSON Schema (2020-12), because 3.0's
 * `nullable` has no form that strict validators and generators all read the same way: ajv ignores it beside
 * `allOf` (so a null `card` fails validation) and refuses it without `type`, and an enum with `nullable` but no
 * `null` in it rejects null. In 3.1 a nullable field says `type: [T, 'null']`, a nullable reference
 * `oneOf: [{ $ref }, { type: 'null' }]`, and a nullable enum lists null: ajv (2020 mode, strict),
 * openapi-typescript and Swagger UI all read these as written. @nestjs/swagger writes 3.0, so this converts its
 * output; DTOs keep using `nullable: true`.
 */
export const OPENAPI_VERSION = '3.1.0';

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Every schema nested in a schema (properties, items, compositions), to convert depth first. */
function childSchemas(schema: Json): Json[] {
  const children: unknown[] = [schema.items, schema.additionalProperties, schema.not];
  if (isObject(schema.properties)) children.push(...Object.values(schema.properties));
  for (const key of ['allOf', 'oneOf', 'anyOf'] as const) if (Array.isArray(schema[key])) children.push(...(schema[key] as unknown[]));
  return children.filter(isObject);
}

/** 3.0's `nullable: true` as 3.1 says it, in place, in this schema and every schema inside it. */
export function convertNullable(schema: Json): void {
  for (const child of childSchemas(schema)) convertNullable(child);
  const nullable = schema.nullable;
  delete schema.nullable;
  if (nullable !== true) return;
  const composite = (['allOf', 'oneOf', 'anyOf'] as const).find((key) => Array.isArray(schema[key]));
  if (composite) {
    // @nestjs/swagger writes a nullable reference as { type: 'object', nullable: true, allOf: [{ $ref }] }.
    const parts = schema[composite] as Json[];
    const inner = composite === 'allOf' && parts.length === 1 ? parts[0] : { [composite]: parts };
    delete schema[composite];
    delete schema.type;
    schema.oneOf = [inner, { type: 'null' }];
    return;
  }
  if (typeof schema.$ref === 'string') {
    schema.oneOf = [{ $ref: schema.$ref }, { type: 'null' }];
    delete schema.$ref;
    return;
  }
  if (schema.type !== undefined) {
    const types = Array.isArray(schema.type) ? (schema.type as unknown[]) : [schema.type];
    schema.type = types.includes('null') ? types : [...types, 'null'];
  }
  if (Array.isArray(schema.enum) && !schema.enum.includes(null)) schema.enum = [...(schema.enum as unknown[]), null];
}

/**
 * openapi-typescript (by default) types a property that has a `default` as always present: right for an
 * answer, wrong for a request, where leaving the field out is how the default is asked for. Request schemas
 * are shared components, so the default is stated in the property's description instead.
 */
function defaultsIntoDescriptions(schema: Json): void {
  for (const child of childSchemas(schema)) defaultsIntoDescriptions(child);
  if (!isObject(schema.properties)) return;
  for (const property of Object.values(schema.properties).filter(isObject)) {
    if (property.default === undefined) continue;
    const said = `Default: \`${JSON.stringify(property.default)}\`.`;
    property.description = typeof property.description === 'string' ? `${property.description} ${said}` : said;
    delete property.default;
  }
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

/**
 * Swagger UI fills a query parameter's example into "Try it out" as if it were the user's input, so a list
 * opened there would filter by a sample cursor and date range and answer nothing. A query parameter's example
 * is said in its description instead.
 */
function queryExamplesIntoDescriptions(document: OpenAPIObject): void {
  for (const item of Object.values(document.paths)) {
    for (const method of METHODS) {
      for (const parameter of ((item[method]?.parameters ?? []) as unknown[]).filter(isObject)) {
        if (parameter.in !== 'query') continue;
        const schema = isObject(parameter.schema) ? parameter.schema : {};
        const example = parameter.example ?? schema.example;
        delete parameter.example;
        delete parameter.examples;
        delete schema.example;
        if (example === undefined || (isObject(schema) && schema.default === example)) continue;
        const said = `For example \`${typeof example === 'string' ? example : JSON.stringify(example)}\`.`;
        parameter.description = typeof parameter.description === 'string' ? `${parameter.description} ${said}` : said;
      }
    }
  }
}

/** Headers OpenAPI says a parameter must not describe: the media type and the credentials have their own fields. */
const IGNORED_HEADERS = new Set(['accept', 'content-type', 'authorization']);

/**
 * @nestjs/swagger adds a parameter for every `@Headers('name')` a handler reads, beside the one its `@ApiHeader`
 * describes: header names ignore case, so one header must be one parameter (the described one), or a generated
 * client asks for it twice.
 */
function oneParameterPerHeader(document: OpenAPIObject): void {
  for (const item of Object.values(document.paths)) {
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation?.parameters) continue;
      const kept = new Map<string, Json>();
      const others: unknown[] = [];
      for (const parameter of operation.parameters as unknown[]) {
        if (!isObject(parameter) || parameter.in !== 'header') {
          others.push(parameter);
          continue;
        }
        const name = String(parameter.name).toLowerCase();
        if (IGNORED_HEADERS.has(name)) continue;
        const before = kept.get(name);
        if (!before || (before.description === undefined && parameter.description !== undefined)) kept.set(name, parameter);
      }
      operation.parameters = [...others, ...kept.values()] as typeof operation.parameters;
    }
  }
}

/** Every schema of the document: components, parameters, bodies, answers and headers. */
function documentSchemas(document: OpenAPIObject): Json[] {
  const schemas: unknown[] = Object.values(document.components?.schemas ?? {});
  const media = (holder: unknown) => (isObject(holder) && isObject(holder.content) ? Object.values(holder.content).map((m) => (m as Json).schema) : []);
  for (const response of Object.values(document.components?.responses ?? {})) schemas.push(...media(response));
  for (const item of Object.values(document.paths)) {
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation) continue;
      for (const parameter of ((operation.parameters ?? []) as unknown[]).filter(isObject)) schemas.push(parameter.schema);
      schemas.push(...media(operation.requestBody));
      for (const response of (Object.values(operation.responses ?? {}) as unknown[]).filter(isObject)) {
        schemas.push(...media(response));
        if (isObject(response.headers)) schemas.push(...Object.values(response.headers).map((h) => (h as Json).schema));
      }
    }
  }
  return schemas.filter(isObject);
}

/** The document @nestjs/swagger built (OpenAPI 3.0), as OpenAPI 3.1 that generated clients and strict validators read as meant. */
export function asOpenApi31(document: OpenAPIObject): OpenAPIObject {
  oneParameterPerHeader(document);
  queryExamplesIntoDescriptions(document);
  for (const schema of documentSchemas(document)) {
    convertNullable(schema);
    defaultsIntoDescriptions(schema);
  }
  document.openapi = OPENAPI_VERSION;
  return document;
}
