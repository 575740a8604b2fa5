import { BadRequestException, Injectable } from '@nestjs/common';
import { isPlainObject } from '../http/body-reader';
import { isProviderOperation, ProviderOperation } from '../sandbox-operations';

const FAULT_KINDS = ['latency', 'unavailable', 'timeout_after_effect', 'reset_after_effect', 'reset_before_effect'] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];
/** A fault that decides how the request ends; latency only delays it. */
export type TerminalFaultKind = Exclude<FaultKind, 'latency'>;

export interface FaultRule {
  id: string;
  /** Absent: the rule matches every provider operation. */
  operation?: ProviderOperation;
  kind: FaultKind;
  latencyMs?: number;
  /** Matching requests it still applies to; null = unlimited. */
  remaining: number | null;
  probability: number;
  /** Requests it has applied to so far. */
  hits: number;
}

export interface FaultDecision {
  latencyMs: number;
  terminal?: TerminalFaultKind;
}

/** Injected network and platform failures, for testing a client's retries and unknown-outcome handling. */
@Injectable()
export class FaultsService {
  private rules: FaultRule[] = [];
  private nextId = 1;

  add(input: unknown): FaultRule {
    if (!isPlainObject(input)) throw new BadRequestException('body must be a JSON object');
    const { operation, kind, latencyMs, count, probability } = input;
    if (typeof kind !== 'string' || !(FAULT_KINDS as readonly string[]).includes(kind)) {
      throw new BadRequestException(`kind must be one of ${FAULT_KINDS.join(', ')}`);
    }
    if (operation !== undefined && (typeof operation !== 'string' || !isProviderOperation(operation))) {
      throw new BadRequestException('operation must be a provider operation name');
    }
    if (kind === 'latency' && !isNonNegativeInteger(latencyMs)) throw new BadRequestException('latency needs latencyMs, an integer >= 0');
    if (latencyMs !== undefined && !isNonNegativeInteger(latencyMs)) throw new BadRequestException('latencyMs must be an integer >= 0');
    if (count !== undefined && !(isNonNegativeInteger(count) && count >= 1)) throw new BadRequestException('count must be an integer >= 1');
    if (probability !== undefined && !(typeof probability === 'number' && probability >= 0 && probability <= 1)) {
      throw new BadRequestException('probability must be a number in 0..1');
    }
    const rule: FaultRule = {
      id: String(this.nextId++),
      ...(operation !== undefined ? { operation } : {}),
      kind: kind as FaultKind,
      ...(kind === 'latency' ? { latencyMs: latencyMs as number } : {}),
      remaining: count === undefined ? null : (count as number),
      probability: probability === undefined ? 1 : (probability as number),
      hits: 0,
    };
    this.rules.push(rule);
    return rule;
  }

  list(): FaultRule[] {
    return this.rules.map((rule) => ({ ...rule }));
  }

  clear(): void {
    this.rules = [];
  }

  /**
   * The faults one request of `operation` suffers, consuming the rules' counts. Every matching latency rule
   * adds its delay; the first matching rule of another kind decides how the request ends.
   */
  take(operation: ProviderOperation): FaultDecision {
    const decision: FaultDecision = { latencyMs: 0 };
    for (const rule of this.rules) {
      if (rule.operation !== undefined && rule.operation !== operation) continue;
      if (rule.remaining !== null && rule.remaining <= 0) continue;
      if (rule.kind !== 'latency' && decision.terminal) continue;
      if (rule.probability < 1 && Math.random() >= rule.probability) continue;
      if (rule.remaining !== null) rule.remaining -= 1;
      rule.hits += 1;
      if (rule.kind === 'latency') decision.latencyMs += rule.latencyMs ?? 0;
      else decision.terminal = rule.kind;
    }
    return decision;
  }
}

function isNonNegativeInteger(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}
