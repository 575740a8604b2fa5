/** A webhook host resolved to an address the target rules forbid (see WebhookTargetPolicy): nothing was sent. */
export class WebhookTargetRefusedError extends Error {
  readonly code = 'ETARGETREFUSED';

  constructor(readonly reason: string) {
    super(`target_refused: ${reason}`);
    this.name = 'WebhookTargetRefusedError';
  }
}
