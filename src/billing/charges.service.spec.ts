import { SystemClock } from '../common/clock/system-clock';
import { BillingTuning } from './billing-tuning';
import { Charge } from './charge.entity';
import { ChargeAttempt } from './charge-attempt.entity';
import { ChargesService } from './charges.service';

/** A charge as another worker leaves it over successive reads: each read answers the next state, the last one stays. */
function chargeReads(states: Partial<Charge>[]) {
  let read = 0;
  return () => ({ id: 'c1', kind: 'period', dunningStartedAt: new Date(0), ...states[Math.min(read++, states.length - 1)] }) as Charge;
}

/** When the retry made the charge due again. */
const NOW = new Date('2027-03-01T10:00:00.000Z');

/** What the operator is told: the charge's status and how many attempts it has. */
const told = (answer: { charge: Charge; attempts: ChargeAttempt[] }) => ({ status: answer.charge.status, attempts: answer.attempts.length });

function serviceWith(options: { claimed: boolean; reads: Partial<Charge>[]; attemptsAfter: number; pollMs?: number }) {
  const charge = chargeReads(options.reads);
  let attemptsRead = 0;
  const attempts = (n: number) => Array.from({ length: n }, (_, i) => ({ number: i + 1 }) as ChargeAttempt);
  const processed: string[] = [];
  const service = new ChargesService(
    { requeueForRetry: async () => true, findById: async () => charge() } as never,
    // The first read is the count before the retry (one declined attempt); every later read sees the other worker's.
    { ofCharge: async () => attempts(attemptsRead++ === 0 ? 1 : options.attemptsAfter) } as never,
    { now: () => NOW } as never,
    { claim: async () => (options.claimed ? [{ row: { id: 'c1' } }] : []) } as never,
    { process: async () => processed.push('c1') && 'succeeded' } as never,
    {} as never,
    {} as never,
    {} as never,
    {} as never,
    { refundedAmounts: async () => new Map() } as never,
    { paymentPollMs: options.pollMs ?? 5_000 } as BillingTuning,
    new SystemClock(),
  );
  return { service, processed };
}

describe('ChargesService.retry when another worker takes the charge first', () => {
  it('answers once that worker made its attempt, not the decline before it', async () => {
    const { service, processed } = serviceWith({
      claimed: false,
      reads: [
        { status: 'retrying', leaseOwner: 'replica-b', nextAttemptAt: NOW },
        { status: 'processing', leaseOwner: 'replica-b', nextAttemptAt: NOW },
        { status: 'succeeded', leaseOwner: null, nextAttemptAt: null },
      ],
      attemptsAfter: 2,
    });
    const answer = await service.retry('c1');
    expect({ ...told(answer), processedHere: processed }).toEqual({ status: 'succeeded', attempts: 2, processedHere: [] });
  });

  it('answers a charge the cap put back on its ladder without an attempt, without waiting for the deadline', async () => {
    const { service } = serviceWith({
      claimed: false,
      reads: [{ status: 'retrying', leaseOwner: null, nextAttemptAt: new Date('2027-03-05T10:00:00.000Z') }],
      attemptsAfter: 1,
      pollMs: 60_000,
    });
    const started = Date.now();
    const answer = await service.retry('c1');
    expect({ ...told(answer), waitedUnderAMinute: Date.now() - started < 60_000 }).toEqual({ status: 'retrying', attempts: 1, waitedUnderAMinute: true });
  });

  it('gives up at the deadline when nobody takes the charge, answering it as it stands', async () => {
    const { service } = serviceWith({
      claimed: false,
      reads: [{ status: 'retrying', leaseOwner: null, nextAttemptAt: NOW }],
      attemptsAfter: 1,
      pollMs: 300,
    });
    const answer = await service.retry('c1');
    expect(told(answer)).toEqual({ status: 'retrying', attempts: 1 });
  });

  it('works the charge itself when its own claim took it', async () => {
    const { service, processed } = serviceWith({ claimed: true, reads: [{ status: 'succeeded', leaseOwner: null, nextAttemptAt: null }], attemptsAfter: 2 });
    await service.retry('c1');
    expect(processed).toEqual(['c1']);
  });
});
