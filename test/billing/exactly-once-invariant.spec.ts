import { ChargeView, checkExactlyOnce, ExactlyOnceExpectation, FEB, LedgerView, MAR, monthlyPeriodStarts, SubscriptionEventView, T0 } from './support/exactly-once';

/** The exactly-once invariant check itself, against hand-made ledgers, charges and audit trails. */
describe('exactly-once charging', () => {
  describe('the invariant check', () => {
    const SUB_A = '00000000-0000-4000-8000-00000000000a';
    const SUB_B = '00000000-0000-4000-8000-00000000000b';
    const expected: ExactlyOnceExpectation = {
      subscriptions: [
        { id: SUB_A, periodStarts: [T0, FEB] },
        { id: SUB_B, periodStarts: [T0, FEB] },
      ],
      amount: 2500,
      currency: 'RUB',
    };
    const payment = (sub: string, period: string, invoiceID: string, paymentID = '1', status = 'captured') => ({
      invoiceID,
      paymentID,
      customerID: `cust-${sub}`,
      amount: 2500,
      currency: 'RUB',
      status,
      externalID: `pay-${invoiceID}-${paymentID}`,
      invoiceMetadata: { subscriptionId: sub, chargeId: `charge-${invoiceID}`, periodStart: period },
    });
    const charge = (sub: string, period: string, invoiceId: string, status = 'succeeded'): ChargeView => ({
      id: `charge-${invoiceId}`,
      subscriptionId: sub,
      periodStart: period,
      status,
      invoiceId,
      amount: 2500,
      currency: 'RUB',
    });
    const cleanLedger = (): LedgerView => ({
      payments: [payment(SUB_A, T0, 'inv-a0'), payment(SUB_A, FEB, 'inv-a1'), payment(SUB_B, T0, 'inv-b0'), payment(SUB_B, FEB, 'inv-b1')],
    });
    const cleanCharges = () => [charge(SUB_A, T0, 'inv-a0'), charge(SUB_A, FEB, 'inv-a1'), charge(SUB_B, T0, 'inv-b0'), charge(SUB_B, FEB, 'inv-b1')];
    const succeededEvent = (c: ChargeView): SubscriptionEventView => ({ subscriptionId: c.subscriptionId, type: 'charge_succeeded', data: { chargeId: c.id } });

    it('accepts one captured payment and one succeeded charge per due period (failed payments do not count)', () => {
      const ledger = cleanLedger();
      ledger.payments.push(payment(SUB_A, FEB, 'inv-a1', '0', 'failed'));
      const report = checkExactlyOnce(ledger, cleanCharges(), expected, cleanCharges().map(succeededEvent));
      expect(report.violations).toEqual([]);
      expect(report).toMatchObject({ charged: 4, expectedPeriods: 4 });
    });

    it('catches a period charged twice, on a second invoice or a second payment of the same invoice', () => {
      const secondInvoice = cleanLedger();
      secondInvoice.payments.push(payment(SUB_A, FEB, 'inv-a1-again'));
      expect(checkExactlyOnce(secondInvoice, cleanCharges(), expected).violations).toEqual([
        expect.stringMatching(new RegExp(`^DOUBLE CHARGE: ${SUB_A}@${FEB} was charged 2 times`)),
      ]);
      const secondPayment = cleanLedger();
      secondPayment.payments.push(payment(SUB_B, T0, 'inv-b0', '2', 'refunded'));
      expect(checkExactlyOnce(secondPayment, cleanCharges(), expected).violations).toEqual([
        expect.stringMatching(new RegExp(`^DOUBLE CHARGE: ${SUB_B}@${T0} was charged 2 times`)),
      ]);
    });

    it('catches a missed period, a charge for a period not due, a stuck charge and a payment still pending', () => {
      const ledger = cleanLedger();
      ledger.payments = ledger.payments.filter((p) => p.invoiceID !== 'inv-b1');
      ledger.payments.push(payment(SUB_A, MAR, 'inv-a2'));
      ledger.payments.push(payment(SUB_B, FEB, 'inv-b1', '1', 'pending'));
      const charges = cleanCharges().map((c) => (c.invoiceId === 'inv-b1' ? { ...c, status: 'processing' } : c));
      const { violations } = checkExactlyOnce(ledger, charges, expected);
      expect(violations).toEqual(
        expect.arrayContaining([
          `MISSED: ${SUB_B}@${FEB} is due but the provider took no money for it`,
          expect.stringMatching(new RegExp(`^UNEXPECTED CHARGE: ${SUB_A}@${MAR}`)),
          expect.stringMatching(/^charge charge-inv-b1 .* is processing/),
          expect.stringMatching(/^payment inv-b1\/1 is still pending/),
        ]),
      );
    });

    it('catches a daemon that lost a charge, has two for a period, recorded another invoice, or records a success twice', () => {
      const charges = cleanCharges().filter((c) => c.invoiceId !== 'inv-a0');
      charges.push(charge(SUB_B, T0, 'inv-b0-dup', 'failed'));
      charges[0] = { ...charges[0], invoiceId: 'inv-other' };
      const events = cleanCharges().map(succeededEvent);
      events.push(succeededEvent(cleanCharges()[3]));
      const { violations } = checkExactlyOnce(cleanLedger(), charges, expected, events);
      expect(violations).toEqual(
        expect.arrayContaining([
          `the daemon has 0 charges for ${SUB_A}@${T0}, expected exactly one`,
          `the daemon has 2 charges for ${SUB_B}@${T0}, expected exactly one`,
          expect.stringMatching(/records invoice inv-other but the money was taken on invoice inv-a1/),
          expect.stringMatching(/records charge_succeeded 2 times for charge charge-inv-b1/),
        ]),
      );
    });

    it('computes the due monthly periods up to and including the final clock time', () => {
      expect(monthlyPeriodStarts(T0, MAR)).toEqual([T0, FEB, MAR]);
      expect(monthlyPeriodStarts(T0, '2027-03-15T09:59:59.999Z')).toEqual([T0, FEB]);
    });
  });
});
