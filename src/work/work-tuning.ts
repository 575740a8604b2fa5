/** Knobs of the work engine that are not public configuration; tests shorten them. */
export class WorkTuning {
  /** How often a process tells the database it is alive. */
  heartbeatMs = 2_000;
  /** A process silent this long is dead: its claims are taken over by the next claim. */
  lapseMs = 6_000;
  /** How often an idle runner looks for work (lapsed claims, backoffs that ended). */
  idlePollMs = 1_000;
  /** First technical backoff; doubles per failure up to maxBackoffMs, with jitter. */
  backoffMs = 2_000;
  maxBackoffMs = 10 * 60_000;

  constructor(values: Partial<WorkTuning> = {}) {
    Object.assign(this, values);
  }
}
