import type { Registry } from "prom-client";

// The request histogram, kept in plain arrays. prom-client's Histogram hashes its labels into a string
// and looks the bucket up by a number turned into a property name at every observation (about 1 µs
// on this machine, most of the observer's cost per request); here a series is found once per class,
// method and status, and an observation is a loop over 14 bounds and three additions. What a scrape
// reads (get) is the very shape prom-client's Histogram gives, so the registry prints it and the
// cluster's sum (AggregatorRegistry.aggregate) adds it up like any other histogram.

/** One series: the counts of each bucket (not cumulative), their sum and count. */
export class HistogramSeries {
  readonly counts: Float64Array;
  sum = 0;
  count = 0;

  constructor(
    private readonly bounds: readonly number[],
    readonly labels: Readonly<Record<string, string>>,
  ) {
    this.counts = new Float64Array(bounds.length);
  }

  observe(value: number): void {
    const bounds = this.bounds;
    for (let i = 0; i < bounds.length; i++) {
      if (value <= bounds[i]!) {
        this.counts[i]!++;
        break;
      }
    }
    this.sum += value;
    this.count++;
  }
}

interface Value {
  labels: Record<string, string | number>;
  value: number;
  metricName: string;
}

/** A histogram whose label names are fixed and whose series are found once and kept (`labels`). */
export class FixedHistogram<L extends string> {
  readonly type = "histogram";
  readonly aggregator = "sum";
  private readonly series = new Map<string, HistogramSeries>();

  constructor(
    readonly config: { name: string; help: string; labelNames: readonly L[]; buckets: readonly number[]; registers: Registry[] },
  ) {
    for (const registry of config.registers) registry.registerMetric(this as never);
  }

  get name(): string {
    return this.config.name;
  }

  get help(): string {
    return this.config.help;
  }

  /** The series of these label values (in labelNames' order), made on first use: keep it. */
  labels(...values: string[]): HistogramSeries {
    const key = values.join("\u0000");
    let series = this.series.get(key);
    if (!series) {
      const labels: Record<string, string> = {};
      this.config.labelNames.forEach((name, i) => (labels[name] = values[i] ?? ""));
      this.series.set(key, (series = new HistogramSeries(this.config.buckets, labels)));
    }
    return series;
  }

  /** What prom-client's Histogram#get gives: per series, each bucket cumulative with `le`, +Inf, _sum and _count. */
  async get(): Promise<{ name: string; help: string; type: "histogram"; aggregator: "sum"; values: Value[] }> {
    const values: Value[] = [];
    const { name, buckets } = this.config;
    for (const series of this.series.values()) {
      let cumulative = 0;
      for (let i = 0; i < buckets.length; i++) {
        cumulative += series.counts[i]!;
        values.push({ labels: { le: buckets[i]!, ...series.labels }, value: cumulative, metricName: `${name}_bucket` });
      }
      values.push({ labels: { le: "+Inf", ...series.labels }, value: series.count, metricName: `${name}_bucket` });
      values.push({ labels: { ...series.labels }, value: series.sum, metricName: `${name}_sum` });
      values.push({ labels: { ...series.labels }, value: series.count, metricName: `${name}_count` });
    }
    return { name, help: this.config.help, type: this.type, aggregator: this.aggregator, values };
  }

  reset(): void {
    this.series.clear();
  }
}
