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
    client = createDataClient({ endpoint });
    clients.set(endpoint, client);
  }
  return client;
}
