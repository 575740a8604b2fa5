/** What a provider operation answers: a status and a JSON body, or no body at all (undefined). */
export interface ProviderReply {
  status: number;
  body?: unknown;
}

export function ok(body: unknown): ProviderReply {
  return { status: 200, body };
}

export function created(body: unknown): ProviderReply {
  return { status: 201, body };
}

export function accepted(body: unknown): ProviderReply {
  return { status: 202, body };
}
