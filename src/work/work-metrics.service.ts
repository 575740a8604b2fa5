import { Injectable } from '@nestjs/common';
import { Counter, Gauge } from 'prom-client';
import { MetricsService } from '../common/metrics/metrics.service';

/** Engine metrics, one series per queue (charges, payouts, customers, destinations, …). */
@Injectable()
export class WorkMetricsService {
  readonly claimed: Counter<'queue'>;
  readonly takeovers: Counter<'queue'>;
  readonly leaseLost: Counter<'queue'>;
  readonly released: Counter<'queue'>;
  readonly inFlight: Gauge<'queue'>;
  readonly heartbeatFailures: Counter<string>;
  readonly strayLeases: Gauge<'queue'>;
  readonly leasesRecovered: Counter<'queue'>;

  constructor(metrics: MetricsService) {
    this.claimed = metrics.counter({ name: 'work_claimed_total', help: 'Work items claimed, by queue', labelNames: ['queue'] });
    this.takeovers = metrics.counter({
      name: 'work_takeovers_total',
      help: 'Claims taken over from a process whose heartbeat lapsed (crash, kill, stall), by queue',
      labelNames: ['queue'],
    });
    this.leaseLost = metrics.counter({ name: 'work_lease_lost_total', help: 'Writes refused by the fence: another process owns the item now', labelNames: ['queue'] });
    this.released = metrics.counter({ name: 'work_released_total', help: 'Claims handed back unworked (shutdown)', labelNames: ['queue'] });
    this.inFlight = metrics.gauge({ name: 'work_in_flight', help: 'Items being worked on in this process, by queue', labelNames: ['queue'] });
    this.strayLeases = metrics.gauge({
      name: 'work_stray_leases',
      help: 'Rows leased to this live process that none of its workers holds (a claim whose answer was lost), at the last heartbeat, by queue',
      labelNames: ['queue'],
    });
    this.leasesRecovered = metrics.counter({
      name: 'work_leases_recovered_total',
      help: 'Stray leases this process freed so that the rows are worked again, by queue',
      labelNames: ['queue'],
    });
    this.heartbeatFailures = metrics.counter({ name: 'work_heartbeat_failures_total', help: 'Heartbeats that could not be written (database unreachable)' });
  }
}
