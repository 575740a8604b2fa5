import type { OpenAPIObject } from '@nestjs/swagger';
import { asOpenApi31, convertNullable } from './openapi-3-1';

describe('OpenAPI 3.0 nullable, as OpenAPI 3.1 says it', () => {
  const converted = (schema: Record<string, unknown>) => {
    convertNullable(schema);
    return schema;
  };

  it('adds null to the type of a nullable field, and to its enum', () => {
    expect(converted({ type: 'string', nullable: true })).toEqual({ type: ['string', 'null'] });
    expect(converted({ type: 'string', enum: ['a', 'b'], nullable: true })).toEqual({ type: ['string', 'null'], enum: ['a', 'b', null] });
  });

  it("turns @nestjs/swagger's nullable reference into oneOf the reference or null, keeping the description", () => {
    expect(converted({ type: 'object', nullable: true, description: 'd', allOf: [{ $ref: '#/components/schemas/Card' }] })).toEqual({
      description: 'd',
      oneOf: [{ $ref: '#/components/schemas/Card' }, { type: 'null' }],
    });
  });

  it('converts nested schemas and leaves non-nullable ones as they were', () => {
    const schema = converted({
      type: 'object',
      properties: { a: { type: 'integer', nullable: false }, b: { type: 'array', items: { type: 'string', nullable: true } } },
    });
    expect(schema).toEqual({ type: 'object', properties: { a: { type: 'integer' }, b: { type: 'array', items: { type: ['string', 'null'] } } } });
  });
});

describe('The document as OpenAPI 3.1', () => {
  const document = () =>
    ({
      openapi: '3.0.0',
      info: { title: 't', version: '1' },
      paths: {
        '/things': {
          get: {
            parameters: [
              { in: 'query', name: 'limit', schema: { type: 'integer', default: 50, example: 50 } },
              { in: 'query', name: 'cursor', description: 'Next page.', schema: { type: 'string', example: 'abc' } },
            ],
            responses: { '200': { description: 'ok' } },
          },
        },
      },
      components: { schemas: { CreateThing: { type: 'object', properties: { count: { type: 'integer', default: 1, description: 'How many.' } } } } },
    }) as unknown as OpenAPIObject;

  it('says a query parameter example in words, so a viewer never fills it in as a filter', () => {
    const [limit, cursor] = asOpenApi31(document()).paths['/things'].get?.parameters as unknown as Record<string, unknown>[];
    expect(limit).toEqual({ in: 'query', name: 'limit', schema: { type: 'integer', default: 50 } });
    expect(cursor).toEqual({ in: 'query', name: 'cursor', description: 'Next page. For example `abc`.', schema: { type: 'string' } });
  });

  it('states a request default in words, so a generated client keeps the field optional', () => {
    const result = asOpenApi31(document());
    expect(result.openapi).toBe('3.1.0');
    expect(result.components?.schemas?.CreateThing).toEqual({ type: 'object', properties: { count: { type: 'integer', description: 'How many. Default: `1`.' } } });
  });

  it('keeps one parameter per header whatever its letter case (the described one), and none for Content-Type', () => {
    const parameters = [
      { name: 'content-signature', in: 'header', required: true, schema: { type: 'string' } },
      { name: 'content-type', in: 'header', required: true, schema: { type: 'string' } },
      { name: 'Content-Signature', in: 'header', required: true, description: 'The signature.', schema: { type: 'string' } },
      { name: 'id', in: 'path', required: true, schema: { type: 'string' } },
    ];
    const result = asOpenApi31({ openapi: '3.0.0', info: { title: 't', version: '1' }, paths: { '/hooks/{id}': { post: { parameters, responses: {} } } } } as unknown as OpenAPIObject);
    expect(result.paths['/hooks/{id}'].post?.parameters).toEqual([parameters[3], parameters[2]]);
  });
});
