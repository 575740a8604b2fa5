/** A payout reference: 1..64 letters, digits and `._:-`. Its own file: the console's CSV preview checks it in the browser. */
export const PAYOUT_REFERENCE_PATTERN = /^[A-Za-z0-9._:-]{1,64}$/;
