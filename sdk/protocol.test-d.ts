import type { VbReceived, VbSent } from './builder/protocol.ts';
import type { CollabSent } from './collab/context.ts';
import type { NoMessages, Received, Sent, TimelineReceived } from './protocol.ts';
import type { Channel } from './transport/channel.ts';

/**
 * Type test of the preview protocol: each request is typed with its payload and reply, so
 * `npx tsc --noEmit` fails when a line marked `@ts-expect-error` compiles (a misspelt message, a
 * payload of the wrong shape, a handler answering the wrong reply) or a correct one stops compiling.
 * Never run, only type-checked; the types add nothing to the bundle.
 */

declare const livePreview: Channel<Sent, Received>;
declare const builder: Channel<VbSent, VbReceived>;
declare const collab: Channel<CollabSent>;
declare const timeline: Channel<NoMessages, TimelineReceived>;

export function senders(): void {
  void livePreview.send('url-change', { targetURL: 'https://example.com/' });
  void builder.send('get-field-schema', { contentTypeUid: 'page' });
  void collab.send('collab-delete-thread', { threadUid: 't1' });
  // @ts-expect-error not a message of the live-preview channel
  void livePreview.send('url-changed', { targetURL: 'https://example.com/' });
  // @ts-expect-error url-change carries targetURL
  void livePreview.send('url-change', { href: 'https://example.com/' });
  // @ts-expect-error get-field-schema carries a content type uid
  void builder.send('get-field-schema', { uid: 'page' });
  // @ts-expect-error collaboration cannot send the builder's requests
  void collab.send('get-field-schema', { contentTypeUid: 'page' });
  // @ts-expect-error the timeline channel only answers
  void timeline.send('send-cslp-data');
}

export function handlers(): void {
  timeline.on('send-current-base-route', () => ({ url: 'https://example.com/' }));
  builder.on('get-entries-in-current-page', () => ({ entriesInCurrentPage: [] }));
  // @ts-expect-error the reply names the url
  timeline.on('send-current-base-route', () => ({ href: 'https://example.com/' }));
  // @ts-expect-error the reply is a list of entries
  builder.on('get-entries-in-current-page', () => ({ entriesInCurrentPage: 'none' }));
  // @ts-expect-error not a request the builder answers
  builder.on('get-field-schema', () => undefined);
}
