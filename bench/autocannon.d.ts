/** The part of autocannon's programmatic API the bench uses (the package ships no types). */
declare module 'autocannon' {
  interface Histogram {
    average: number;
    mean: number;
    p50: number;
    p90: number;
    p97_5: number;
    p99: number;
    max: number;
    total: number;
  }
  interface AutocannonRequest {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    onResponse?: (
      status: number,
      body: string,
      context: Record<string, unknown>,
      headers: Record<string, string>,
    ) => void;
  }
  interface AutocannonOptions {
    url: string;
    connections?: number;
    duration?: number;
    headers?: Record<string, string>;
    requests?: AutocannonRequest[];
    timeout?: number;
    pipelining?: number;
    setupClient?: (client: { setRequests(requests: AutocannonRequest[]): void }) => void;
  }
  export interface AutocannonResult {
    requests: Histogram;
    latency: Histogram;
    throughput: Histogram;
    errors: number;
    timeouts: number;
    non2xx: number;
    statusCodeStats: Record<string, { count: number }>;
    duration: number;
  }
  export default function autocannon(options: AutocannonOptions): Promise<AutocannonResult>;
}
