/**
 * What the server tells the island runtime, in a JSON data block (`#vitrine-runtime`), on pages
 * that load the runtime at all: the running build and the few messages the runtime shows.
 */
export interface RuntimeData {
  build: { id: string; timestamp: number };
  messages: { updateAvailable: string; reload: string };
}

export const RUNTIME_DATA_ID = 'vitrine-runtime';

export function readRuntimeData(doc: Document): RuntimeData | null {
  const text = doc.getElementById(RUNTIME_DATA_ID)?.textContent;
  if (!text) return null;
  try {
    return JSON.parse(text) as RuntimeData;
  } catch {
    return null;
  }
}
