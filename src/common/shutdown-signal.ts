import { BeforeApplicationShutdown, Injectable } from '@nestjs/common';

/** Flips once the process starts shutting down: readiness answers 503 and jobs stop taking work. */
@Injectable()
export class ShutdownSignal implements BeforeApplicationShutdown {
  private stopping = false;

  get isShuttingDown(): boolean {
    return this.stopping;
  }

  begin(): void {
    this.stopping = true;
  }

  beforeApplicationShutdown(): void {
    this.begin();
  }
}
