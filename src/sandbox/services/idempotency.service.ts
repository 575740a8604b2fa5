import { Injectable } from '@nestjs/common';
import { ProviderError } from '../http/provider-error';
import { SandboxStateService } from '../state/sandbox-state.service';

/** JSON with object keys sorted, so that equal features compare equal whatever order the client sent. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item === undefined ? null : item)).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * externalID de-duplication as the provider does it: the key is (operation, externalID); a repeat with the
 * same features gets the existing object, a repeat with different features gets 409.
 */
@Injectable()
export class IdempotencyService {
  constructor(private readonly store: SandboxStateService) {}

  /**
   * The id of the object an earlier request with this key created, undefined when there was none. `shownId` turns a
   * stored id into the one a 409 names (refunds store where they live beside their own id).
   */
  existing(operation: string, externalID: string | undefined, features: unknown, shownId: (id: string) => string = (id) => id): string | undefined {
    if (externalID === undefined) return undefined;
    const record = this.store.state.idempotency.get(key(operation, externalID));
    if (!record) return undefined;
    if (record.features !== canonicalJson(features)) throw ProviderError.externalIdConflict(externalID, shownId(record.id));
    return record.id;
  }

  /** The id of the object made under this key, whatever its features (the provider's lookups by externalID). */
  idOf(operation: string, externalID: string): string | undefined {
    return this.store.state.idempotency.get(key(operation, externalID))?.id;
  }

  remember(operation: string, externalID: string | undefined, features: unknown, id: string): void {
    if (externalID === undefined) return;
    this.store.state.idempotency.set(key(operation, externalID), { features: canonicalJson(features), id });
  }
}

function key(operation: string, externalID: string): string {
  return `${operation}\u0000${externalID}`;
}
