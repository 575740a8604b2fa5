import { Injectable } from '@nestjs/common';
import { timingSafeEqual } from 'node:crypto';
import type { Credential } from '../http/credential';
import { SandboxConfig } from '../sandbox-config';
import { opaqueToken } from '../state/ids';
import { SandboxStateService } from '../state/sandbox-state.service';

/** Invoice and customer access tokens live 3 days, as CAPI's DEFAULT_*_ACCESS_TOKEN_LIFETIME (259200 s). */
const ACCESS_TOKEN_LIFETIME_MS = 3 * 24 * 60 * 60 * 1000;

/** Issues access tokens and turns an Authorization header into a credential. */
@Injectable()
export class AccessTokensService {
  private readonly apiKey: Buffer;

  constructor(
    config: SandboxConfig,
    private readonly store: SandboxStateService,
  ) {
    this.apiKey = Buffer.from(config.apiKey);
  }

  issue(kind: 'invoice' | 'customer', subjectID: string): string {
    const token = opaqueToken(32);
    this.store.state.accessTokens.set(token, { kind, subjectID, expiresAt: Date.now() + ACCESS_TOKEN_LIFETIME_MS });
    return token;
  }

  /** Undefined for a missing, malformed, unknown or expired bearer credential. */
  resolve(authorization: string | undefined): Credential | undefined {
    if (!authorization) return undefined;
    const match = /^bearer\s+(\S+)$/i.exec(authorization.trim());
    if (!match) return undefined;
    const presented = match[1];
    const bytes = Buffer.from(presented);
    if (bytes.length === this.apiKey.length && timingSafeEqual(bytes, this.apiKey)) return { kind: 'apiKey' };
    const record = this.store.state.accessTokens.get(presented);
    if (!record || record.expiresAt <= Date.now()) return undefined;
    return record.kind === 'invoice' ? { kind: 'invoiceToken', invoiceID: record.subjectID } : { kind: 'customerToken', customerID: record.subjectID };
  }

  /** True when `token` is a live access token of this customer (the hosted form's check). */
  isCustomerToken(token: string, customerID: string): boolean {
    const record = this.store.state.accessTokens.get(token);
    return record !== undefined && record.kind === 'customer' && record.subjectID === customerID && record.expiresAt > Date.now();
  }

  /** Every invoice and customer token issued so far stops working (lets clients test token renewal). */
  expireAll(): void {
    const past = Date.now() - 1;
    for (const record of this.store.state.accessTokens.values()) record.expiresAt = Math.min(record.expiresAt, past);
    this.store.changed();
  }
}
