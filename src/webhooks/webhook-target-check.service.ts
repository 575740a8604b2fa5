import { Injectable } from '@nestjs/common';
import { isIP } from 'node:net';
import { invalidField } from '../common/errors/coded-error';
import { WebhookTargetPolicy } from './webhook-target-policy';
import { WebhookTuning } from './webhook-tuning';

/**
 * The target rules applied when an endpoint is created or its URL changed: the URL as written, then every address
 * its host resolves to now. A host that does not resolve yet (or not in time) is accepted: the rules are applied
 * again to the address each delivery connects to, which is what actually protects the network.
 */
@Injectable()
export class WebhookTargetCheck {
  constructor(
    private readonly policy: WebhookTargetPolicy,
    private readonly tuning: WebhookTuning,
  ) {}

  /** Throws a 400 naming `url` and the reason when the URL may not receive webhooks. */
  async check(url: string): Promise<void> {
    const problem = this.policy.problemWithUrl(url) ?? (await this.problemWithResolvedHost(new URL(url).hostname));
    if (problem !== null) throw invalidField('url', `url is not an allowed webhook target: ${problem} (see "Webhook targets" in docs/operations.md)`);
  }

  private async problemWithResolvedHost(hostname: string): Promise<string | null> {
    if (isIP(hostname.replace(/^\[|\]$/g, ''))) return null;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), this.tuning.createLookupTimeoutMs)));
    try {
      const addresses = await Promise.race([this.tuning.lookupHost(hostname).catch(() => null), timeout]);
      for (const { address } of addresses ?? []) {
        const problem = this.policy.problemWithAddress(address, hostname);
        if (problem !== null) return `${hostname} resolves to a ${problem} (${address})`;
      }
      return null;
    } finally {
      clearTimeout(timer);
    }
  }
}
