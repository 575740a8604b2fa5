import { Injectable } from '@nestjs/common';
import { SandboxState } from './sandbox-state';

/** Owns the current state; reset swaps in a fresh one, so services must read `state` on every call. */
@Injectable()
export class SandboxStateService {
  private current = new SandboxState();
  private readonly listeners: (() => void)[] = [];

  get state(): SandboxState {
    return this.current;
  }

  replace(state: SandboxState): void {
    this.current = state;
  }

  reset(): void {
    this.current = new SandboxState();
    this.changed();
  }

  /** Services call this after every mutation; persistence listens. */
  changed(): void {
    for (const listener of this.listeners) listener();
  }

  onChange(listener: () => void): void {
    this.listeners.push(listener);
  }
}
