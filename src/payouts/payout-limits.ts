/** Payouts in one batch (admin API contract); the CSV import splits larger files into batches of this size. */
export const MAX_BATCH_ITEMS = 10_000;
