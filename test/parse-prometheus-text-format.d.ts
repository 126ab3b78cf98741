/** The part of parse-prometheus-text-format the tests use (the package ships no types). */
declare module 'parse-prometheus-text-format' {
  interface MetricFamily {
    name: string;
    help: string;
    /** prom2json's spelling: COUNTER, GAUGE, HISTOGRAM, SUMMARY, UNTYPED. */
    type: string;
    metrics: { value?: string; labels?: Record<string, string> }[];
  }
  /** Throws on a line that is not in the text format. */
  export default function parsePrometheusTextFormat(text: string): MetricFamily[];
}
