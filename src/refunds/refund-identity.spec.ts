import { refundExternalId } from './refund-identity';

describe('refund externalIDs', () => {
  const invoice = 'invAbCdEfGhIjKlMnOpQrStUv0a1b2c3';

  it('derive from the charge and the number, or from the charge and the reference, within the provider’s 40 characters', () => {
    const byNumber = [1, 2, 36, 99_999].map((n) => refundExternalId(invoice, n, null));
    expect(new Set(byNumber).size).toBe(4);
    expect(byNumber[0]).toMatch(/^rf[A-Za-z0-9_-]{30}\.1$/);
    expect(byNumber[2]).toMatch(/\.10$/);
    for (const id of byNumber) expect(id.length).toBeLessThanOrEqual(40);

    const byReference = refundExternalId(invoice, 1, 'crm-ticket-42');
    expect(byReference).toMatch(/^rr[A-Za-z0-9_-]{38}$/);
    // The reference alone decides, whatever the number a restored database gives the refund.
    expect(refundExternalId(invoice, 7, 'crm-ticket-42')).toBe(byReference);
    // The same reference on another charge names another refund.
    expect(refundExternalId(`${invoice}x`, 1, 'crm-ticket-42')).not.toBe(byReference);
  });

  it('are stable: the same charge and number always give the same one', () => {
    expect(refundExternalId(invoice, 3, null)).toBe(refundExternalId(invoice, 3, null));
    expect(refundExternalId(invoice, 3, null)).not.toBe(refundExternalId('invOther', 3, null));
  });
});
