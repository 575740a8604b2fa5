import { Injectable } from '@nestjs/common';
import { acsPage, issuerSilentPage, noCheckPage } from '../hosted-form/acs-pages';
import type { HtmlReply } from '../hosted-form/html-reply';
import { resultPage } from '../hosted-form/hosted-form-pages';
import { BindingsService } from './bindings.service';

/** How long the result page waits for the test bank before it says "still processing". */
export const RESULT_WAIT_MS = 5000;

/** The card issuer's 3-D Secure page: shows a waiting check, and confirms it. */
@Injectable()
export class AcsService {
  constructor(private readonly bindings: BindingsService) {}

  show(bindingID: unknown, secret: unknown): HtmlReply {
    const record = this.bindings.waitingCheck(bindingID, secret);
    if (!record?.interaction) return { status: 404, html: noCheckPage() };
    if (record.interaction.confirmed) return { status: 200, html: issuerSilentPage() };
    return {
      status: 200,
      html: acsPage({
        bindingID: record.binding.id,
        secret: record.interaction.secret,
        lastDigits: record.card.lastDigits,
        paymentSystem: record.card.paymentSystem,
      }),
    };
  }

  /** Confirms the check, then shows the binding's outcome once the test bank has answered. */
  async confirm(bindingID: unknown, secret: unknown): Promise<HtmlReply> {
    const record = this.bindings.waitingCheck(bindingID, secret);
    if (!record) return { status: 404, html: noCheckPage() };
    if (this.bindings.confirm(record) === 'issuer_silent') return { status: 200, html: issuerSilentPage() };
    const current = (await this.bindings.settled(record.binding.id, RESULT_WAIT_MS)) ?? record;
    return {
      status: 200,
      html: resultPage(current.binding.status, { bindingID: current.binding.id, lastDigits: current.card.lastDigits, message: current.binding.error?.message }),
    };
  }
}
