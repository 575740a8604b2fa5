import { failureCodePath } from '../gateway/failure-code';
import type { CustomerBindingStatus, CustomerEvent } from '../gateway/provider-api.types';
import { BindingInteraction, sameInteraction, toBindingInteraction } from './binding-interaction';
import type { BindingStatus, CustomerBinding } from './customer-binding.entity';
import type { CustomerStatus } from './customer.entity';
import { CardSummary, cardSummaryFrom } from './sync-schedule';

/** What the events said about one provider binding, folded in event order. */
export interface BindingObservation {
  providerBindingId: string;
  externalId?: string;
  status?: CustomerBindingStatus;
  errorCode?: string | null;
  card?: CardSummary | null;
  /** What the provider asks of the payer now: set by a request, null once completed; undefined when not seen. */
  interaction?: BindingInteraction | null;
}

/** Everything one read of a customer at the provider learned. */
export interface ProviderView {
  observations: Map<string, BindingObservation>;
  lastEventId: number | null;
  /** True when the page cap was hit: more events wait, so the customer is read again at once. */
  moreEvents: boolean;
  /** True when our event cursor named no event and the stream was read again from the start. */
  restarted: boolean;
  status: CustomerStatus;
  /** The binding that becomes the active card, with its details; undefined when the active card stays as it is. */
  activeCard?: { providerBindingId: string; card: CardSummary | null };
}

/** The columns of a binding row an observation may change. */
export type BindingPatch = Partial<
  Pick<CustomerBinding, 'providerBindingId' | 'status' | 'errorCode' | 'cardBin' | 'cardLastDigits' | 'cardPaymentSystem' | 'interaction'>
>;

/** The values of a new row for a binding not started through our API (the hosted form). */
export type ObservedBindingValues = Pick<
  CustomerBinding,
  'customerId' | 'externalId' | 'status' | 'errorCode' | 'cardBin' | 'cardLastDigits' | 'cardPaymentSystem' | 'interaction'
> & { providerBindingId: string };

const TERMINAL: ReadonlySet<BindingStatus> = new Set(['succeeded', 'failed']);

/** Folds one event into the observations; returns the id of the last binding it reports as succeeded, if any. */
export function foldEvent(observations: Map<string, BindingObservation>, event: CustomerEvent): string | undefined {
  let succeeded: string | undefined;
  const observe = (id: string) => {
    let observation = observations.get(id);
    if (!observation) {
      observation = { providerBindingId: id };
      observations.set(id, observation);
    }
    return observation;
  };
  for (const change of event.changes ?? []) {
    if (change.changeType === 'CustomerBindingStarted') {
      const binding = change.customerBinding;
      const observation = observe(binding.id);
      if (binding.externalID !== undefined) observation.externalId = binding.externalID;
      observation.status = binding.status;
      observation.errorCode = binding.error ? failureCodePath(binding.error) : null;
      observation.card = cardSummaryFrom(binding.paymentResource?.paymentToolDetails);
      if (binding.status === 'succeeded') succeeded = binding.id;
    } else if (change.changeType === 'CustomerBindingStatusChanged') {
      const observation = observe(change.customerBindingID);
      observation.status = change.status;
      observation.errorCode = change.error ? failureCodePath(change.error) : null;
      if (change.status === 'succeeded') succeeded = change.customerBindingID;
    } else if (change.changeType === 'CustomerBindingInteractionRequested') {
      // 3-D Secure: the binding stays pending and waits for the payer at the address the provider names.
      observe(change.customerBindingID).interaction = toBindingInteraction(change.userInteraction);
    } else if (change.changeType === 'CustomerBindingInteractionCompleted') {
      observe(change.customerBindingID).interaction = null;
    }
  }
  return succeeded;
}

/** A binding's outcome is final at the provider: a replayed or stale "pending" never undoes it. */
export function mergeStatus(current: BindingStatus, observed: CustomerBindingStatus | undefined): BindingStatus {
  if (observed === undefined) return current;
  if (TERMINAL.has(current) && observed === 'pending') return current;
  return observed;
}

/** A new row for an observed binding we did not start: it has no externalId. */
export function newObservedBinding(customerId: string, observation: BindingObservation): ObservedBindingValues {
  const status = observation.status ?? 'pending';
  return {
    customerId,
    providerBindingId: observation.providerBindingId,
    externalId: null,
    status,
    errorCode: observation.status === 'failed' ? (observation.errorCode ?? null) : null,
    cardBin: observation.card?.bin ?? null,
    cardLastDigits: observation.card?.lastDigits ?? null,
    cardPaymentSystem: observation.card?.paymentSystem ?? null,
    interaction: TERMINAL.has(status) ? null : (observation.interaction ?? null),
  };
}

/**
 * What an observation changes on the local row: the provider id once known, the merged status, the error code
 * while failed, the interaction the payer owes while the binding is in progress (none once it is final), and card
 * details only when the row has none yet. Empty when nothing changes.
 */
export function bindingPatch(
  row: Pick<CustomerBinding, 'providerBindingId' | 'status' | 'errorCode' | 'cardBin' | 'cardLastDigits' | 'interaction'>,
  observation: BindingObservation,
): BindingPatch {
  const status = mergeStatus(row.status, observation.status);
  const patch: BindingPatch = {};
  if (row.providerBindingId !== observation.providerBindingId) patch.providerBindingId = observation.providerBindingId;
  if (status !== row.status) patch.status = status;
  const errorCode = status === 'failed' ? (observation.errorCode ?? row.errorCode) : null;
  if (errorCode !== row.errorCode) patch.errorCode = errorCode;
  const interaction = TERMINAL.has(status) ? null : observation.interaction === undefined ? row.interaction : observation.interaction;
  if (!sameInteraction(interaction, row.interaction)) patch.interaction = interaction;
  if (observation.card && row.cardBin === null && row.cardLastDigits === null) {
    patch.cardBin = observation.card.bin;
    patch.cardLastDigits = observation.card.lastDigits;
    patch.cardPaymentSystem = observation.card.paymentSystem;
  }
  return patch;
}
