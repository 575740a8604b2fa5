import { BadRequestException, Injectable } from '@nestjs/common';
import { isPlainObject } from '../http/body-reader';
import { SandboxConfig, SandboxDelays } from '../sandbox-config';
import { SandboxStateService } from '../state/sandbox-state.service';
import { FaultsService } from './faults.service';
import { RequestLogService } from './request-log.service';
import { SandboxScheduler } from './sandbox-scheduler.service';
import { WebhookDeliveryService } from './webhook-delivery.service';

export interface SandboxSettings {
  delays: SandboxDelays;
  shopId: string | null;
  webhookRetryScale: number;
}

const DELAY_KEYS: readonly (keyof SandboxDelays)[] = ['bindingMs', 'paymentMs', 'captureMs', 'authorizeDestinationMs', 'withdrawalMs', 'refundMs', 'threeDsTimeoutMs'];

/** Test and demo controls that span the whole sandbox: reset and run-time settings. */
@Injectable()
export class SandboxControlService {
  constructor(
    private readonly config: SandboxConfig,
    private readonly store: SandboxStateService,
    private readonly faults: FaultsService,
    private readonly requestLog: RequestLogService,
    private readonly scheduler: SandboxScheduler,
    private readonly webhookDeliveries: WebhookDeliveryService,
  ) {}

  /** Forgets everything: state, pending steps, faults, scripted outcomes, the request log and webhook deliveries. */
  reset(): void {
    this.scheduler.cancelAll();
    this.webhookDeliveries.clear();
    this.faults.clear();
    this.requestLog.clear();
    this.store.reset();
  }

  settings(): SandboxSettings {
    return { delays: { ...this.config.delays }, shopId: this.config.shopId ?? null, webhookRetryScale: this.config.webhookRetryScale };
  }

  /** New delays and a new webhook retry scale apply to steps and retries scheduled from now on. */
  update(input: unknown): SandboxSettings {
    if (input !== undefined && !isPlainObject(input)) throw new BadRequestException('body must be a JSON object');
    const scale = retryScale(input?.webhookRetryScale);
    const delays: unknown = input?.delays;
    if (delays !== undefined) {
      if (!isPlainObject(delays)) throw new BadRequestException('delays must be an object');
      const next = { ...this.config.delays };
      for (const [key, value] of Object.entries(delays)) {
        if (!(DELAY_KEYS as readonly string[]).includes(key)) throw new BadRequestException(`unknown delay ${key}; known: ${DELAY_KEYS.join(', ')}`);
        if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) throw new BadRequestException(`${key} must be an integer >= 0`);
        next[key as keyof SandboxDelays] = value;
      }
      this.config.delays = next;
    }
    if (scale !== undefined) this.config.webhookRetryScale = scale;
    return this.settings();
  }
}

function retryScale(value: unknown): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0 || value > 1) throw new BadRequestException('webhookRetryScale must be a number in (0, 1]');
  return value;
}
