/** How long the simulated provider takes before an asynchronous operation reaches its next state. */
export interface SandboxDelays {
  bindingMs: number;
  /** From a payment's creation to its outcome (processed, or failed). */
  paymentMs: number;
  /** From `processed` to `captured` (0: both at once, as the provider's instant flow mostly answers). */
  captureMs: number;
  authorizeDestinationMs: number;
  withdrawalMs: number;
  /** From a refund's creation (pending) to its outcome. */
  refundMs: number;
  /** How long a 3-D Secure binding waits for the payer to confirm at the ACS page before it fails. */
  threeDsTimeoutMs: number;
}

export const DEFAULT_SANDBOX_DELAYS: Readonly<SandboxDelays> = Object.freeze({
  bindingMs: 50,
  paymentMs: 20,
  captureMs: 0,
  authorizeDestinationMs: 200,
  withdrawalMs: 100,
  refundMs: 50,
  threeDsTimeoutMs: 10 * 60_000,
});

/** The sandbox's settings, shared by every service of one sandbox instance; delays can change at run time. */
export class SandboxConfig {
  /** Set once the server listens; 3-D Secure redirects point back at it. */
  baseUrl = '';
  /** Multiplies the provider's webhook retry schedule (30 s, 5 min, ...): tests shrink it, 1 is the real one. */
  webhookRetryScale = 1;

  constructor(
    readonly apiKey: string,
    readonly shopId: string | undefined,
    public delays: SandboxDelays,
    readonly stateFile: string | undefined,
  ) {}
}
