import fc from 'fast-check';
import {
  attemptOfPaymentExternalId,
  EXTERNAL_ID_MAX_LENGTH,
  invoiceDueAt,
  invoiceExternalId,
  MAX_PRORATIONS_PER_PERIOD,
  oneOffInvoiceExternalId,
  paymentExternalId,
  prorationInvoiceExternalId,
  setupFeeInvoiceExternalId,
} from './external-ids';

const periodStart = fc.date({ min: new Date('1970-01-01T00:00:00Z'), max: new Date('2400-01-01T00:00:00Z'), noInvalidDate: true });

describe('provider identities of a charge', () => {
  const subscription = '0b7d6a4e-55b2-4c1e-9a43-2f7e8c1d9b00';
  const march = new Date('2027-03-31T21:00:00.000Z');

  it('are the same for the same subscription and period, whenever and by whichever row they are computed', () => {
    expect(invoiceExternalId(subscription, march)).toBe(invoiceExternalId(subscription.toUpperCase(), new Date(march.getTime())));
    // 2027-03-31T21:00:00Z is 1806526800 s, "0tvk500" in base 36; the subscription's bytes in base64url.
    expect(invoiceExternalId(subscription, march)).toBe('invC31qTlWyTB6aQy9-jB2bAA0tvk500');
    expect(paymentExternalId(invoiceExternalId(subscription, march), 2)).toBe('payC31qTlWyTB6aQy9-jB2bAA0tvk5002');
  });

  it('differ for another period or another subscription, and stay within the provider limit', () => {
    fc.assert(
      fc.property(fc.uuid(), fc.uuid(), periodStart, periodStart, fc.integer({ min: 1, max: 999 }), (a, b, p, q, attempt) => {
        const ia = invoiceExternalId(a, p);
        expect(ia.length).toBeLessThanOrEqual(EXTERNAL_ID_MAX_LENGTH);
        expect(paymentExternalId(ia, attempt).length).toBeLessThanOrEqual(EXTERNAL_ID_MAX_LENGTH);
        const sameSecond = Math.floor(p.getTime() / 1000) === Math.floor(q.getTime() / 1000);
        if (a.toLowerCase() !== b.toLowerCase() || !sameSecond) expect(invoiceExternalId(b, q)).not.toBe(ia);
      }),
    );
  });

  it('give each attempt its own payment id, and read the attempt back from it', () => {
    fc.assert(
      fc.property(fc.uuid(), periodStart, fc.integer({ min: 1, max: 999 }), fc.integer({ min: 1, max: 999 }), (s, p, m, n) => {
        const invoice = invoiceExternalId(s, p);
        expect(attemptOfPaymentExternalId(invoice, paymentExternalId(invoice, m))).toBe(m);
        if (m !== n) expect(paymentExternalId(invoice, m)).not.toBe(paymentExternalId(invoice, n));
      }),
    );
  });

  it("keep the payment ids of charges made before identities derived from the period (the invoice's stored externalID)", () => {
    const chargeId = '5f0c2a1e-0d4b-4a55-8e0f-3b2c1d0e9f87';
    const legacyInvoice = `inv${chargeId.replace(/-/g, '')}`;
    expect(paymentExternalId(legacyInvoice, 3)).toBe(`pay${chargeId.replace(/-/g, '')}3`);
    expect(attemptOfPaymentExternalId(legacyInvoice, `pay${chargeId.replace(/-/g, '')}3`)).toBe(3);
  });

  it('recognise no payment of another invoice, and no malformed attempt', () => {
    const invoice = invoiceExternalId(subscription, march);
    const other = invoiceExternalId(subscription, new Date(march.getTime() + 86_400_000));
    expect(attemptOfPaymentExternalId(invoice, paymentExternalId(other, 1))).toBeUndefined();
    expect(attemptOfPaymentExternalId(invoice, `${paymentExternalId(invoice, 1)}x`)).toBeUndefined();
    expect(attemptOfPaymentExternalId(invoice, undefined)).toBeUndefined();
    expect(() => paymentExternalId(invoice, 0)).toThrow();
  });

  it("a proration's differ from its period's and from each other, and so do all their payments'", () => {
    expect(prorationInvoiceExternalId(subscription, march, 1)).toBe('invC31qTlWyTB6aQy9-jB2bAA0tvk500p01');
    fc.assert(
      fc.property(fc.uuid(), periodStart, fc.integer({ min: 1, max: MAX_PRORATIONS_PER_PERIOD }), fc.integer({ min: 1, max: MAX_PRORATIONS_PER_PERIOD }), fc.integer({ min: 1, max: 9999 }), fc.integer({ min: 1, max: 9999 }), (sub, p, m, n, x, y) => {
        const a = prorationInvoiceExternalId(sub, p, m);
        const b = prorationInvoiceExternalId(sub, p, n);
        expect(a === b).toBe(m === n);
        expect(a).not.toBe(invoiceExternalId(sub, p));
        expect(paymentExternalId(a, x) === paymentExternalId(b, y)).toBe(m === n && x === y);
        expect(paymentExternalId(a, x).length).toBeLessThanOrEqual(EXTERNAL_ID_MAX_LENGTH);
        expect(attemptOfPaymentExternalId(invoiceExternalId(sub, p), paymentExternalId(a, x))).toBeUndefined();
      }),
    );
  });

  it("a one-off's derive from its reference alone (or its id), a setup fee's from its subscription, apart from every period's", () => {
    const reference = fc.stringMatching(/^[A-Za-z0-9._:-]{1,64}$/);
    fc.assert(
      fc.property(fc.uuid(), fc.uuid(), reference, reference, periodStart, fc.integer({ min: 1, max: 9999 }), (a, b, r, q, p, attempt) => {
        const byReference = oneOffInvoiceExternalId(a, r);
        expect(oneOffInvoiceExternalId(b, r)).toBe(byReference);
        expect(oneOffInvoiceExternalId(a, q) === byReference).toBe(r === q);
        const ids = [byReference, oneOffInvoiceExternalId(a, null), setupFeeInvoiceExternalId(a), invoiceExternalId(a, p)];
        expect(new Set(ids).size).toBe(4);
        for (const id of ids) expect(paymentExternalId(id, attempt).length).toBeLessThanOrEqual(EXTERNAL_ID_MAX_LENGTH);
        expect(attemptOfPaymentExternalId(invoiceExternalId(a, p), paymentExternalId(setupFeeInvoiceExternalId(a), attempt))).toBeUndefined();
        expect(attemptOfPaymentExternalId(byReference, paymentExternalId(byReference, attempt))).toBe(attempt);
      }),
    );
  });
});

describe("an invoice's due date", () => {
  const DAY = 86_400_000;
  const ladder = fc.array(fc.integer({ min: 0, max: 30 * DAY }), { maxLength: 8 });
  const sum = (delays: number[]) => delays.reduce((a, b) => a + b, 0);

  it('is the same for a charge made again later (a restore), however late, up to 15 days after its period began', () => {
    fc.assert(
      fc.property(periodStart, ladder, fc.integer({ min: -400 * DAY, max: 15 * DAY }), fc.integer({ min: -400 * DAY, max: 15 * DAY }), (start, delays, first, again) => {
        const made = (late: number) => invoiceDueAt(start, new Date(start.getTime() + late), delays).getTime();
        expect(made(again)).toBe(made(first));
        expect(made(first)).toBe(start.getTime() + sum(delays) + 30 * DAY);
      }),
    );
  });

  it('always leaves the whole ladder and 15 days more after the invoice is made, and moves only by whole 30-day steps', () => {
    fc.assert(
      fc.property(periodStart, ladder, fc.integer({ min: -400 * DAY, max: 3_000 * DAY }), (start, delays, late) => {
        const madeAt = new Date(start.getTime() + late);
        const due = invoiceDueAt(start, madeAt, delays).getTime();
        expect(due - madeAt.getTime()).toBeGreaterThanOrEqual(sum(delays) + 15 * DAY);
        expect((due - start.getTime() - sum(delays)) % (30 * DAY)).toBe(0);
        expect(due).toBeLessThanOrEqual(invoiceDueAt(start, new Date(madeAt.getTime() + DAY), delays).getTime());
      }),
    );
  });

  it('is worked by hand: a renewal made on time and one billed 20 days late', () => {
    const start = new Date('2027-02-15T10:00:00.000Z');
    expect(invoiceDueAt(start, new Date('2027-02-15T10:03:00.000Z'), [DAY, 2 * DAY]).toISOString()).toBe('2027-03-20T10:00:00.000Z');
    expect(invoiceDueAt(start, new Date('2027-03-07T10:00:00.000Z'), [DAY, 2 * DAY]).toISOString()).toBe('2027-04-19T10:00:00.000Z');
  });
});
