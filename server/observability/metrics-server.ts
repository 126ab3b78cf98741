import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Metrics } from './metrics.ts';

export interface MetricsServer {
  port: number;
  close(): Promise<void>;
}

/**
 * `GET /metrics` on a port of its own: the scrape port can stay inside the cluster while the public
 * port faces visitors, and scraping never competes with the page routes' hooks or shedding.
 */
export function startMetricsServer(
  metrics: Pick<Metrics, 'text'>,
  { port, host, onError }: { port: number; host: string; onError: (error: unknown) => void },
): Promise<MetricsServer> {
  const server = createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0];
    if (path !== '/metrics' || (request.method !== 'GET' && request.method !== 'HEAD')) {
      response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not found: GET /metrics\n');
      return;
    }
    metrics.text().then(
      ({ contentType, body }) => {
        response.writeHead(200, { 'content-type': contentType, 'cache-control': 'no-store' });
        response.end(request.method === 'HEAD' ? undefined : body);
      },
      (error: unknown) => {
        response.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end('Metrics unavailable\n');
        onError(error);
      },
    );
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve({
        port: (server.address() as AddressInfo).port,
        close: () =>
          new Promise((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}
