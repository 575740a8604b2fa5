import { BadRequestException, Injectable, NotFoundException } from '@nestjs/common';
import { isOutcome } from '../cards/card-outcomes';
import { isPlainObject } from '../http/body-reader';
import { SandboxStateService } from '../state/sandbox-state.service';

/**
 * Scripted payment outcomes per customer: a bound card can only be a success card, so declines of
 * recurring charges (the dunning path) are simulated by script.
 */
@Injectable()
export class OutcomeScriptService {
  constructor(private readonly store: SandboxStateService) {}

  /** Replaces the customer's script; an empty list clears it. */
  set(input: unknown): void {
    if (!isPlainObject(input)) throw new BadRequestException('body must be a JSON object');
    const { customerID, outcomes } = input;
    if (typeof customerID !== 'string' || customerID.length === 0) throw new BadRequestException('customerID must be a non-empty string');
    if (!Array.isArray(outcomes) || !outcomes.every((o): o is string => typeof o === 'string' && isOutcome(o))) {
      throw new BadRequestException('outcomes must be a list of "success" or failure code paths such as "authorization_failed:insufficient_funds"');
    }
    const { state } = this.store;
    if (!state.customers.has(customerID)) throw new NotFoundException('Customer not found');
    if (outcomes.length === 0) state.scriptedOutcomes.delete(customerID);
    else state.scriptedOutcomes.set(customerID, [...outcomes]);
    this.store.changed();
  }

  /** The next scripted outcome for this customer, consumed; undefined when the script is exhausted. */
  take(customerID: string): string | undefined {
    const script = this.store.state.scriptedOutcomes.get(customerID);
    if (!script) return undefined;
    const next = script.shift();
    if (script.length === 0) this.store.state.scriptedOutcomes.delete(customerID);
    return next;
  }
}
