import { Injectable } from '@nestjs/common';
import { collectDefaultMetrics, Counter, CounterConfiguration, Gauge, GaugeConfiguration, Histogram, HistogramConfiguration, Registry } from 'prom-client';

/** One Prometheus registry per app instance (not the global one, so tests can run several apps). */
@Injectable()
export class MetricsService {
  readonly registry = new Registry();

  constructor() {
    collectDefaultMetrics({ register: this.registry });
  }

  /** The counter of this name: the one already registered (several services or app parts may ask), or a new one. */
  counter<T extends string>(config: Omit<CounterConfiguration<T>, 'registers'>): Counter<T> {
    return (this.registry.getSingleMetric(config.name) as Counter<T> | undefined) ?? new Counter({ ...config, registers: [this.registry] });
  }

  gauge<T extends string>(config: Omit<GaugeConfiguration<T>, 'registers'>): Gauge<T> {
    return (this.registry.getSingleMetric(config.name) as Gauge<T> | undefined) ?? new Gauge({ ...config, registers: [this.registry] });
  }

  histogram<T extends string>(config: Omit<HistogramConfiguration<T>, 'registers'>): Histogram<T> {
    return (this.registry.getSingleMetric(config.name) as Histogram<T> | undefined) ?? new Histogram({ ...config, registers: [this.registry] });
  }

  render(): Promise<string> {
    return this.registry.metrics();
  }
}
