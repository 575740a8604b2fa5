import { Injectable } from '@nestjs/common';
import { collectDefaultMetrics, Counter, CounterConfiguration, Gauge, GaugeConfiguration, Histogram, HistogramConfiguration, Registry } from 'prom-client';

/** One Prometheus registry per app instance (not the global one, so tests can run several apps). */
@Injectable()
export class MetricsService {
  readonly registry = new Registry();

  constructor() {
    collectDefaultMetrics({ register: this.registry });
  }

  counter<T extends string>(config: Omit<CounterConfiguration<T>, 'registers'>): Counter<T> {
    return new Counter({ ...config, registers: [this.registry] });
  }

  gauge<T extends string>(config: Omit<GaugeConfiguration<T>, 'registers'>): Gauge<T> {
    return new Gauge({ ...config, registers: [this.registry] });
  }

  histogram<T extends string>(config: Omit<HistogramConfiguration<T>, 'registers'>): Histogram<T> {
    return new Histogram({ ...config, registers: [this.registry] });
  }

  render(): Promise<string> {
    return this.registry.metrics();
  }
}
