import type { OpenAPIObject, ReferenceObject, SchemaObject } from '@nestjs/swagger';
import { STATUS_CODES } from 'node:http';

type Schema = SchemaObject | ReferenceObject;

const SAMPLE_BY_FORMAT: Record<string, string> = {
  'date-time': '2027-01-31T00:00:00.000Z',
  uuid: '3f2b8c1e-4d5a-4b6c-8d7e-9f0a1b2c3d4e',
  uri: 'https://example.com',
};

/** An example value for a schema: its own example first, else one built from its parts' examples. */
function exampleOf(schema: Schema, document: OpenAPIObject, depth = 0): unknown {
  if (depth > 16) return null;
  if ('$ref' in schema) {
    const name = schema.$ref.replace('#/components/schemas/', '');
    const target = document.components?.schemas?.[name];
    return target ? exampleOf(target, document, depth + 1) : null;
  }
  if (schema.example !== undefined) return schema.example;
  if (schema.allOf) return Object.assign({}, ...schema.allOf.map((part) => exampleOf(part, document, depth + 1) as object));
  if (schema.oneOf?.[0]) return exampleOf(schema.oneOf[0], document, depth + 1);
  if (schema.enum?.length) return schema.enum[0] as unknown;
  if (schema.type === 'array') return schema.items ? [exampleOf(schema.items, document, depth + 1)] : [];
  if (schema.properties) {
    return Object.fromEntries(Object.entries(schema.properties).map(([name, property]) => [name, exampleOf(property, document, depth + 1)]));
  }
  if (schema.type === 'object') return {};
  if (schema.type === 'integer' || schema.type === 'number') return schema.minimum ?? 0;
  if (schema.type === 'boolean') return false;
  return (schema.format && SAMPLE_BY_FORMAT[schema.format]) ?? 'string';
}

/**
 * Completes what the decorators leave out: every JSON request body and answer without an `example` gets one
 * built from its schema (so each operation shows a full sample in the document itself, not only in a
 * viewer), and every answer without a description gets its status's name.
 */
export function withExamplesAndDescriptions(document: OpenAPIObject): OpenAPIObject {
  for (const item of Object.values(document.paths)) {
    for (const operation of [item.get, item.put, item.post, item.delete, item.patch]) {
      if (!operation) continue;
      for (const [status, response] of Object.entries(operation.responses ?? {})) {
        if (response && !('$ref' in response) && !response.description) response.description = STATUS_CODES[Number(status)] ?? status;
      }
      for (const body of [operation.requestBody, ...Object.values(operation.responses ?? {})]) {
        if (!body || '$ref' in body) continue;
        const media = body.content?.['application/json'];
        if (media?.schema && media.example === undefined && media.examples === undefined) media.example = exampleOf(media.schema, document);
      }
    }
  }
  return document;
}
