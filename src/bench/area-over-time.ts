/**
 * A level held over time (level × ms), kept in at most `maxBuckets` buckets of equal width from `origin`: the width
 * doubles (pairs merge) when a run outgrows them, so memory stays bounded however long the run, where a log of every
 * change would grow with it (and, in the bench's own process, with the peak RSS it measures).
 */
export class AreaOverTime {
  private buckets: number[] = [];
  private width = 1;

  constructor(
    private readonly origin: number,
    private readonly maxBuckets = 1000,
  ) {}

  /** Adds `level` held from `from` to `to` (ms, on the origin's clock); time before the origin does not count. */
  add(level: number, from: number, to: number): void {
    const start = Math.max(from, this.origin);
    if (level === 0 || to <= start) return;
    while ((to - this.origin) / this.width > this.maxBuckets) this.coarsen();
    // Every bucket the interval overlaps, by its bounds (a loop driven by the bounds alone ends whatever the rounding).
    const first = Math.floor((start - this.origin) / this.width);
    const last = Math.min(this.maxBuckets - 1, Math.floor((to - this.origin) / this.width));
    for (let i = first; i <= last; i++) {
      const overlap = Math.min(to, this.origin + (i + 1) * this.width) - Math.max(start, this.origin + i * this.width);
      if (overlap > 0) this.buckets[i] = (this.buckets[i] ?? 0) + level * overlap;
    }
  }

  /** The time-weighted average level from the origin to `to`. */
  average(to: number): number {
    const span = to - this.origin;
    return span > 0 ? this.buckets.reduce((sum, area) => sum + (area ?? 0), 0) / span : 0;
  }

  /** The average level over each tenth of [origin, to]; a bucket that straddles two tenths is shared in proportion. */
  averageByTenth(to: number): number[] {
    const span = to - this.origin;
    const areas = new Array<number>(10).fill(0);
    if (span <= 0) return areas;
    const tenth = span / 10;
    this.buckets.forEach((area, i) => {
      if (!area) return;
      const start = this.origin + i * this.width;
      const end = start + this.width;
      const firstTenth = Math.max(0, Math.floor((start - this.origin) / tenth) - 1);
      const lastTenth = Math.min(9, Math.floor((end - this.origin) / tenth));
      for (let k = firstTenth; k <= lastTenth; k++) {
        const overlap = Math.min(end, k === 9 ? Math.max(to, end) : this.origin + (k + 1) * tenth) - Math.max(start, this.origin + k * tenth);
        if (overlap > 0) areas[k] += (area * overlap) / this.width;
      }
    });
    return areas.map((area) => area / tenth);
  }

  private coarsen(): void {
    const merged: number[] = [];
    for (let i = 0; i < this.buckets.length; i += 2) merged.push((this.buckets[i] ?? 0) + (this.buckets[i + 1] ?? 0));
    this.buckets = merged;
    this.width *= 2;
  }
}
