import { Readable } from 'node:stream';
import type { ReactElement } from 'react';
// React's own renderToPipeableStream, from the build React ships for Bun. The Node build
// encodes each of the thousands of small chunks of a page into a Uint8Array as it goes (a
// TextEncoder call and a view per chunk) and runs every render inside an AsyncLocalStorage, which
// turns on promise hooks for the whole process; together that made streaming cost twice
// renderToString. This build writes the same chunks as strings to `write()`, and DocumentSink
// encodes a batch once. Its only Bun API (`Bun.hash`) is reached by `useActionState` with a server
// action or a `formState` option, neither of which exists here. Same HTML (test/pages.test.ts).
import { renderToPipeableStream } from 'react-dom/server.bun';

/** A render that has not produced its shell by then is abandoned (the client gets an error page). */
const SHELL_TIMEOUT_MS = 10_000;

/**
 * Where React writes a document (write batching). React hands over thousands of small
 * chunks per page and calls `flush()` after each batch it completes; piped into a PassThrough each
 * chunk went through the stream machinery and often its own socket write. Here a batch is kept
 * until `flush()` and sent as one Buffer, so a page without suspended parts leaves in one write,
 * and a page with them still streams, one write per completed batch.
 */
export class DocumentSink extends Readable {
  #text = '';
  #bytes: Buffer[] = [];
  #ended = false;
  /** Nothing read yet: batches are held back, so a document complete at once is one Buffer. */
  #holding = true;

  override _read(): void {}

  /** React's writes: strings, or byte views it never writes into again (so they are not copied). */
  write(chunk: string | Uint8Array): boolean {
    if (typeof chunk === 'string') {
      this.#text += chunk;
    } else {
      this.#keepText();
      this.#bytes.push(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
    }
    return true;
  }

  flush(): void {
    // Held back, the text stays a string: release() may hand it over without encoding it here.
    if (this.#holding) return;
    this.#keepText();
    if (this.#bytes.length > 0) this.push(this.#take());
  }

  end(): this {
    this.#ended = true;
    this.flush();
    if (!this.#holding) this.push(null);
    return this;
  }

  /**
   * The whole document when React finished it before anyone read (no suspended parts), as the
   * string React wrote: sent with a Content-Length, encoded straight into the socket, and none of a
   * stream's machinery, like renderToString's output. Otherwise undefined: the sink streams.
   */
  release(): string | Buffer | undefined {
    this.#holding = false;
    if (this.#ended) {
      if (this.#bytes.length === 0) return this.#text;
      this.#keepText();
      return this.#take();
    }
    this.flush();
    return undefined;
  }

  #take(): Buffer {
    const batch = this.#bytes.length === 1 ? (this.#bytes[0] as Buffer) : Buffer.concat(this.#bytes);
    this.#bytes = [];
    return batch;
  }

  #keepText(): void {
    if (this.#text === '') return;
    this.#bytes.push(Buffer.from(this.#text, 'utf8'));
    this.#text = '';
  }
}

/** The setTimeout React's start-up arms with: the global one, read as each render starts. */
let arming: typeof setTimeout = globalThis.setTimeout;
/** The first timer armed while the render being started runs its start-up. */
let caught: StartTimer | undefined;

/**
 * The setTimeout React sees while a render starts: arms the timer as usual and remembers the first.
 * One function for the life of the process, never one made per render: a closure written into the
 * global object for each render (it held the render) outlived every young-generation collection,
 * the collector promoted the render with it, and V8, seeing React's allocations survive, went on to
 * allocate them in the old generation, where dead renders kept every later one alive until a full
 * collection (decision 0209).
 */
const catchingSetTimeout = ((callback: () => void, ms?: number) => {
  const handle = arming(callback, ms);
  caught ??= { handle, callback };
  return handle;
}) as typeof setTimeout;

/**
 * React's renderToPipeableStream as it is, and the one timer it arms at the start of every render
 * (`setTimeout(…, 0)`: it ends the render's opening phase and emits early preloads), caught so the
 * caller may run it as soon as the document is complete. Left to fire, it held React's request
 * (about 20 KB) until the next timers phase; at 32 connections tens of renders run in one event-loop
 * turn, so every young-generation collection copied all of them (decision 0197).
 */
function renderCatchingStartTimer(
  element: ReactElement,
  options: Parameters<typeof renderToPipeableStream>[1],
): { stream: ReturnType<typeof renderToPipeableStream>; startTimer: StartTimer | undefined } {
  arming = globalThis.setTimeout;
  caught = undefined;
  // Only React runs until this returns: its start-up schedules the work in a microtask and this timer.
  globalThis.setTimeout = catchingSetTimeout;
  try {
    const stream = renderToPipeableStream(element, options);
    return { stream, startTimer: caught };
  } finally {
    globalThis.setTimeout = arming;
    caught = undefined;
  }
}

interface StartTimer {
  handle: ReturnType<typeof setTimeout>;
  callback: () => void;
}

/**
 * Streams a document with React 19. Resolves once the shell is ready, so the caller sets status and
 * headers before the first byte; rejects when the shell fails, so the caller can answer with an
 * error page instead of half a document. React writes the doctype because the root is `<html>`.
 * A document that is complete with its shell comes whole (a string); one still rendering, as a stream.
 */
export function streamDocument(
  element: ReactElement,
  onError: (error: unknown) => void,
): Promise<Readable | string | Buffer> {
  // React keeps these callbacks until a timer of its own fires, a whole event-loop turn of other
  // requests later: once settled they reach neither the promise (and its document) nor the sink,
  // or every document would outlive the next young-generation collection and be promoted.
  let pending: { resolve(document: Readable | string | Buffer): void; reject(error: unknown): void } | undefined;
  const promise = new Promise<Readable | string | Buffer>((resolve, reject) => {
    pending = { resolve, reject };
  });
  let output: DocumentSink | undefined = new DocumentSink();
  const { stream, startTimer } = renderCatchingStartTimer(element, {
    onShellReady() {
      clearTimeout(timer);
      const sink = output as DocumentSink;
      output = undefined;
      // React only needs write/flush/end and the events of a writable; the sink is read by the reply.
      stream.pipe(sink as unknown as NodeJS.WritableStream);
      const whole = sink.release();
      // A complete document has nothing left to open or preload: React's start timer runs now and
      // lets go of the render, instead of a turn later.
      if (whole !== undefined && startTimer) {
        clearTimeout(startTimer.handle);
        startTimer.callback();
      }
      pending?.resolve(whole ?? sink);
      pending = undefined;
    },
    onShellError(error) {
      clearTimeout(timer);
      pending?.reject(error);
      pending = undefined;
    },
    onError(error) {
      onError(error);
    },
  });
  const timer = setTimeout(() => stream.abort(new Error('render timed out')), SHELL_TIMEOUT_MS);
  return promise;
}
