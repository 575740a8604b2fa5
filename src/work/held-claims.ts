/** A row's place in a claim: which row, under which fence. */
interface Held {
  id: string;
  fence: number;
}

/**
 * The claims of one queue this process holds in memory (each row with the fence it was claimed under, for as long as
 * a claim object is reachable), and a gate that keeps new claims out while this process's leases are compared with
 * them. A claim whose statement committed but whose answer never arrived leaves rows leased to this live process that
 * no worker of it knows: they are the leases found in the database and not here.
 */
export class HeldClaims {
  private readonly fences = new Map<string, number>();
  /** A claim object nobody references any more is no longer worked: its row leaves the map. */
  private readonly forget = new FinalizationRegistry<Held>(({ id, fence }) => {
    if (this.fences.get(id) === fence) this.fences.delete(id);
  });
  private claiming = 0;
  private gate: Promise<void> | null = null;
  private readonly whenIdle: (() => void)[] = [];

  /** Waits while leases are being compared, then counts a claim as in flight. */
  async enter(): Promise<void> {
    while (this.gate) await this.gate;
    this.claiming++;
  }

  /** The claim answered: its rows are held (as long as `owner`, the claim object, is reachable). */
  held(claims: { owner: object; id: string; fence: number }[]): void {
    for (const { owner, id, fence } of claims) {
      this.fences.set(id, fence);
      this.forget.register(owner, { id, fence });
    }
    this.leave();
  }

  /** The claim failed: whatever it may have leased is unknown here (compare the leases to find it). */
  failed(): void {
    this.leave();
  }

  /** Whether this process holds the row under this fence. */
  holds(id: string, fence: number): boolean {
    return this.fences.get(id) === fence;
  }

  /** Runs `check` with no claim in flight and none starting until it ends, so every lease this process made is known. */
  async exclusive<R>(check: () => Promise<R>): Promise<R> {
    while (this.gate) await this.gate;
    let open = () => undefined as void;
    this.gate = new Promise<void>((resolve) => (open = resolve));
    try {
      while (this.claiming > 0) await new Promise<void>((resolve) => this.whenIdle.push(resolve));
      return await check();
    } finally {
      this.gate = null;
      open();
    }
  }

  private leave(): void {
    this.claiming--;
    if (this.claiming === 0) for (const resolve of this.whenIdle.splice(0)) resolve();
  }
}
