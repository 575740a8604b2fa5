import { DateTime } from 'luxon';

/**
 * The decline model of the recovery simulation. Every simulated subscription's first renewal is declined (the
 * population is the declined volume); what happens on later attempts depends on the decline's class, drawn once per
 * subscription from a seeded generator, so both strategies meet exactly the same customers.
 *
 * Parameters (public figures, rounded; sources in the notes beside each and in docs/billing.md):
 */
export const MODEL = {
  /** Share of declines by class. Insufficient funds is the largest single reason of recurring declines (about half of
   * soft declines in Recurly's and Stripe's published breakdowns); do-not-honor next; hard declines (expired, lost,
   * stolen) about a fifth; technical errors the rest. */
  classMix: { insufficient_funds: 0.45, issuer_refusal: 0.25, technical: 0.1, hard: 0.2 },
  /** Insufficient funds: wages arrive on paydays (RU: at least twice a month, TK RF art. 136; days 1 and 15 local).
   * Each payday after the decline funds the card with this chance; from 06:00 local that day an attempt succeeds with
   * `fundedSuccess`, before any funding payday with `unfundedSuccess` (spare money). */
  paydays: [1, 15],
  paydayFunds: 0.75,
  fundsFromHour: 6,
  fundedSuccess: 0.9,
  unfundedSuccess: 0.05,
  /** Do-not-honor: each retry succeeds with this chance, whenever it is made (issuer risk checks clear by themselves). */
  issuerRetrySuccess: 0.25,
  /** Technical errors at the issuer: the next attempt succeeds with this chance. */
  technicalRetrySuccess: 0.9,
  /** This share of customers, whatever their decline's class, binds a new card after 1..`replaceMaxDays` days (uniform);
   * a new card pays with `newCardSuccess`. (Stripe: card updaters and customers fix ~ half of expired cards within
   * weeks; the model applies that figure to every class, soft declines included.) */
  replaceShare: 0.5,
  replaceMaxDays: 20,
  newCardSuccess: 0.95,
} as const;

export type ModelClass = keyof typeof MODEL.classMix;

export const CODES: Record<ModelClass, string> = {
  insufficient_funds: 'authorization_failed:insufficient_funds',
  issuer_refusal: 'authorization_failed:rejected_by_issuer',
  technical: 'authorization_failed:temporarily_unavailable',
  hard: 'authorization_failed:payment_tool_rejected:bank_card_rejected:card_expired',
};

/** mulberry32: a small seeded generator, the same sequence for the same seed. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** One simulated customer: what declined its renewal and how it will behave, drawn in advance. */
export class ModelCustomer {
  readonly declineClass: ModelClass;
  /** Whether each payday after the decline funds the card (insufficient funds). */
  private readonly paydayFunds: boolean[];
  /** Uniform draws, one per attempt after the first. */
  private readonly draws: number[];
  /** Hard declines: days after the decline at which a new card is bound, or null. */
  readonly replaceAfterDays: number | null;

  constructor(
    readonly index: number,
    readonly zone: string,
    seed: number,
  ) {
    const random = seeded(seed * 100_003 + index);
    let pick = random();
    this.declineClass = 'technical';
    for (const [cls, share] of Object.entries(MODEL.classMix) as [ModelClass, number][]) {
      if (pick < share) {
        this.declineClass = cls;
        break;
      }
      pick -= share;
    }
    this.paydayFunds = Array.from({ length: 8 }, () => random() < MODEL.paydayFunds);
    this.draws = Array.from({ length: 64 }, () => random());
    this.replaceAfterDays = random() < MODEL.replaceShare ? 1 + Math.floor(random() * MODEL.replaceMaxDays) : null;
  }

  /** The outcome of attempt `n` (2 = the first retry) at `at`, the first decline at `declinedAt`; `newCard` once replaced. */
  outcome(n: number, at: Date, declinedAt: Date, newCard: boolean): string {
    const u = this.draws[Math.min(n - 2, this.draws.length - 1)];
    if (newCard) return u < MODEL.newCardSuccess ? 'success' : CODES.issuer_refusal;
    switch (this.declineClass) {
      case 'hard':
        return CODES.hard;
      case 'technical':
        return u < MODEL.technicalRetrySuccess ? 'success' : CODES.technical;
      case 'issuer_refusal':
        return u < MODEL.issuerRetrySuccess ? 'success' : CODES.issuer_refusal;
      default:
        return u < (this.funded(at, declinedAt) ? MODEL.fundedSuccess : MODEL.unfundedSuccess) ? 'success' : CODES.insufficient_funds;
    }
  }

  /** Whether a payday between the decline and `at` (funds from 06:00 local) funded the card. */
  private funded(at: Date, declinedAt: Date): boolean {
    let day = DateTime.fromJSDate(declinedAt, { zone: this.zone }).startOf('day');
    const end = at.getTime();
    let payday = 0;
    while (day.toMillis() <= end && payday < this.paydayFunds.length) {
      if ((MODEL.paydays as readonly number[]).includes(day.day)) {
        const fundsAt = day.set({ hour: MODEL.fundsFromHour });
        if (fundsAt.toMillis() > declinedAt.getTime()) {
          if (fundsAt.toMillis() <= end && this.paydayFunds[payday]) return true;
          payday++;
        }
      }
      day = day.plus({ days: 1 });
    }
    return false;
  }
}
