/** A refund reference: 1..64 letters, digits and `._:-`, as a payout's. */
export const REFUND_REFERENCE_PATTERN = /^[A-Za-z0-9._:-]{1,64}$/;
