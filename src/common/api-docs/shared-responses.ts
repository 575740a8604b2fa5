import type { OpenAPIObject, ResponseObject } from '@nestjs/swagger';

/**
 * Moves each distinct error answer to `components.responses` once and refers to it from every operation, so
 * the document (and its committed copy) does not repeat the same codes, texts and examples dozens of times.
 * The name says the status and the codes: `409.idempotency_key_reused.state_conflict`.
 */
export function withSharedErrorResponses(document: OpenAPIObject): OpenAPIObject {
  const shared: Record<string, ResponseObject> = {};
  for (const item of Object.values(document.paths)) {
    for (const operation of [item.get, item.put, item.post, item.delete, item.patch]) {
      if (!operation) continue;
      for (const [status, response] of Object.entries(operation.responses ?? {})) {
        if (!response || Number(status) < 400 || '$ref' in response) continue;
        const examples = response.content?.['application/json']?.examples;
        if (!examples) continue;
        const name = [status, ...Object.keys(examples)].join('.');
        shared[name] = response;
        operation.responses[status] = { $ref: `#/components/responses/${name}` };
      }
    }
  }
  const names = Object.keys(shared).sort();
  document.components = { ...document.components, responses: { ...document.components?.responses, ...Object.fromEntries(names.map((n) => [n, shared[n]])) } };
  return document;
}
