/** The failure of an exchange that outlived the transport's deadline: whatever stage it was at, the provider may have acted. */
export class ExchangeDeadlineError extends Error {
  readonly code = 'ETIMEDOUT';

  constructor(readonly deadlineMs: number) {
    super(`no response within ${deadlineMs} ms`);
  }
}
