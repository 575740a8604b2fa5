import { Injectable, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import { AccessTokensService } from '../services/access-tokens.service';
import { FaultsService, TerminalFaultKind } from '../services/faults.service';
import { LoggedRequest, RequestLogService } from '../services/request-log.service';
import { SandboxScheduler } from '../services/sandbox-scheduler.service';
import { operationSpec, ProviderOperation } from '../sandbox-operations';
import { SandboxStateService } from '../state/sandbox-state.service';
import { AuthRequirement } from './auth-requirement';
import type { Credential } from './credential';
import { ProviderError } from './provider-error';
import type { ProviderReply } from './provider-reply';
import type { QueryParams } from './query-params';
import { SchemaViolation } from './schema-violation';

interface ExchangeContext {
  body: unknown;
  credential: Credential;
  query: QueryParams;
  /** The caller's address as the provider would see it (added to tokenization results). */
  clientIp: string;
}

/** Most operations answer at once; a few (webhook creation, which may make a key pair) answer asynchronously. */
export type ProviderHandler = (context: ExchangeContext) => ProviderReply | Promise<ProviderReply>;

type ParsedBody = { ok: true; value: unknown } | { ok: false; raw: unknown };

const MAX_REQUEST_ID_LENGTH = 32;

/**
 * The one path every provider request takes: request log, injected faults, credential, X-Request-ID and
 * body checks, the operation itself, then the reply in the operation's error dialect. Controllers only
 * name the operation, its credential rule and the service call.
 */
@Injectable()
export class ProviderExchange {
  private readonly logger = new Logger('SandboxExchange');

  constructor(
    private readonly faults: FaultsService,
    private readonly requestLog: RequestLogService,
    private readonly tokens: AccessTokensService,
    private readonly store: SandboxStateService,
    private readonly scheduler: SandboxScheduler,
  ) {}

  async handle(req: Request, res: Response, operation: ProviderOperation, auth: AuthRequirement, handler: ProviderHandler): Promise<void> {
    const parsed = parseBody(req);
    const entry = this.requestLog.record(operation, req, parsed.ok ? parsed.value : parsed.raw);
    const faults = this.faults.take(operation);
    if (faults.latencyMs > 0) await this.scheduler.sleep(faults.latencyMs);
    // "unavailable" and "reset_before_effect" stand for failures before the provider did anything.
    if (faults.terminal === 'reset_before_effect') return this.destroy(res, entry, faults.terminal);
    if (faults.terminal === 'unavailable') return this.send(res, entry, { status: 503 }, faults.terminal);

    const reply = await this.apply(req, operation, auth, parsed, handler);
    if (req.method !== 'GET' && reply.status < 300) this.store.changed();

    // The effect has happened; these two make the client unsure of it.
    if (faults.terminal === 'timeout_after_effect') return this.send(res, entry, { status: 504 }, faults.terminal);
    if (faults.terminal === 'reset_after_effect') return this.destroy(res, entry, faults.terminal);
    this.send(res, entry, reply);
  }

  private async apply(req: Request, operation: ProviderOperation, auth: AuthRequirement, parsed: ParsedBody, handler: ProviderHandler): Promise<ProviderReply> {
    const spec = operationSpec(operation);
    try {
      const credential = this.tokens.resolve(req.headers.authorization);
      if (!credential || !auth.allows(credential)) throw ProviderError.unauthorized();
      checkRequestId(req.headers['x-request-id']);
      let body: unknown;
      if (spec.bodyName) {
        // The provider only accepts JSON bodies; anything else is refused before validation.
        if (!isJson(req)) return { status: 415 };
        if (!parsed.ok) throw new SchemaViolation('schema_violated', spec.bodyName, 'body: not valid JSON');
        body = parsed.value;
      }
      return await handler({ body, credential, query: req.query as QueryParams, clientIp: clientIp(req) });
    } catch (e) {
      if (e instanceof ProviderError) return { status: e.status, body: e.body };
      if (e instanceof SchemaViolation) return { status: 400, body: spec.api === 'capi' ? e.capiBody() : e.walletBody() };
      // Never the request itself: it may carry card data.
      this.logger.error(`${operation} failed unexpectedly: ${e instanceof Error ? e.message : String(e)}`);
      return { status: 500 };
    }
  }

  private send(res: Response, entry: LoggedRequest, reply: ProviderReply, fault?: TerminalFaultKind): void {
    entry.status = reply.status;
    if (fault) entry.fault = fault;
    res.status(reply.status);
    if (reply.body === undefined) res.end();
    else res.json(reply.body);
  }

  private destroy(res: Response, entry: LoggedRequest, fault: TerminalFaultKind): void {
    entry.fault = fault;
    res.socket?.destroy();
  }
}

function checkRequestId(value: string | string[] | undefined): void {
  if (value === undefined) throw new SchemaViolation('schema_violated', 'X-Request-ID');
  const id = Array.isArray(value) ? value.join(',') : value;
  if (id.length < 1 || id.length > MAX_REQUEST_ID_LENGTH) throw new SchemaViolation('wrong_length', 'X-Request-ID');
}

function isJson(req: Request): boolean {
  return /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i.test(req.headers['content-type'] ?? '');
}

/** The JSON text parser left a string on req.body (or nothing at all); parse it here so bad JSON still gets the provider's error shape. */
function parseBody(req: Request): ParsedBody {
  const raw: unknown = req.body;
  if (raw === undefined || raw === '') return { ok: true, value: undefined };
  if (typeof raw !== 'string') return { ok: true, value: raw };
  try {
    return { ok: true, value: JSON.parse(raw) as unknown };
  } catch {
    return { ok: false, raw };
  }
}

function clientIp(req: Request): string {
  const address = req.socket.remoteAddress ?? '';
  return address.startsWith('::ffff:') ? address.slice(7) : address;
}
