import { createDataClient, type DataClient } from './client.ts';
import { DEFAULT_ENDPOINT } from './constants.ts';

const clients = new Map<string, DataClient>();

/**
 * The page's data client for an endpoint: every island on a page shares one socket and one token.
 * Created on first use, which is always in the browser (an effect or an event), never during the
 * server render, where there is no WebSocket.
 */
export function pageClient(endpoint = DEFAULT_ENDPOINT): DataClient {
  let client = clients.get(endpoint);
  if (!client) {
    if (clients.size === 0) followPageLifecycle();
    client = createDataClient({ endpoint });
    clients.set(endpoint, client);
  }
  return client;
}

/**
 * An open WebSocket keeps a page out of the back/forward cache (or is cut while it is there): the
 * sockets close on `pagehide` and open again, with fresh data, when the page is shown from the cache.
 */
function followPageLifecycle(): void {
  window.addEventListener('pagehide', () => {
    for (const client of clients.values()) client.suspend();
  });
  window.addEventListener('pageshow', (event) => {
    if (!event.persisted) return;
    for (const client of clients.values()) client.resume();
  });
}
