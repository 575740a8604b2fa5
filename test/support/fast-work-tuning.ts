import type { WorkTuning } from '../../src/work/work-tuning';

/**
 * The engine's timings shortened so that faults heal within a test: backoffs in milliseconds, a dead
 * process's claims taken over after two seconds of silence.
 */
export const FAST_WORK_TUNING: Partial<WorkTuning> = { backoffMs: 20, maxBackoffMs: 200, heartbeatMs: 250, lapseMs: 2_000, idlePollMs: 50 };
