/**
 * The only source of business time. Services never call `new Date()` or `Date.now()` for decisions;
 * they ask the clock, so the test clock can move time for every replica at once.
 */
export abstract class Clock {
  abstract now(): Date;

  /** Re-reads shared clock state; called before each billing pass and admin request. */
  async refresh(): Promise<void> {}
}
