import { PassThrough, type Readable } from 'node:stream';
import type { ReactElement } from 'react';
import { renderToPipeableStream } from 'react-dom/server';

/** A render that has not produced its shell by then is abandoned (the client gets an error page). */
const SHELL_TIMEOUT_MS = 10_000;

/**
 * Streams a document with React 19. Resolves once the shell is ready, so the caller sets status and
 * headers before the first byte; rejects when the shell fails, so the caller can answer with an
 * error page instead of half a document. React writes the doctype because the root is `<html>`.
 */
export function streamDocument(element: ReactElement, onError: (error: unknown) => void): Promise<Readable> {
  return new Promise((resolve, reject) => {
    const output = new PassThrough();
    const stream = renderToPipeableStream(element, {
      onShellReady() {
        clearTimeout(timer);
        stream.pipe(output);
        resolve(output);
      },
      onShellError(error) {
        clearTimeout(timer);
        reject(error);
      },
      onError(error) {
        onError(error);
      },
    });
    const timer = setTimeout(() => stream.abort(new Error('render timed out')), SHELL_TIMEOUT_MS);
  });
}
