/**
 * A build-time change to React's streaming renderer (the `react-dom/server.bun` build, decision
 * 0012), applied when the server is bundled (vite.server.config.ts); decision 0216. React measures
 * every chunk of every finished segment in UTF-8 bytes (`Buffer.byteLength`: a native call for each
 * of the thousands of chunks of a page, 7% of an uncached page's CPU) only to decide whether a
 * Suspense boundary is large enough to be sent out of line. Our pages have no Suspense boundary, and
 * for one added later a chunk's length in UTF-16 code units is as good a measure of "large"
 * (it counts a character outside ASCII as one or two instead of two to four).
 */

/** React 19's byteLengthOfChunk in the bun build, exactly as it ships. */
const MEASURED_IN_BYTES = 'function byteLengthOfChunk(chunk) {\n  return Buffer.byteLength(chunk, "utf8");\n}';
const MEASURED_IN_LENGTH = 'function byteLengthOfChunk(chunk) {\n  return chunk.length;\n}';

/** Which module the change applies to. */
export const REACT_STREAMING_BUILD = /react-dom[\\/]cjs[\\/]react-dom-server\.bun\.production\.js$/;

/**
 * The build's source with chunks measured by length; throws when React's function is not the one
 * this replaces (a React upgrade changed it), so the bundle never silently keeps or loses the change.
 */
export function measureChunksByLength(source: string, file: string): string {
  const at = source.indexOf(MEASURED_IN_BYTES);
  if (at === -1 || source.indexOf(MEASURED_IN_BYTES, at + 1) !== -1)
    throw new Error(
      `${file}: React's byteLengthOfChunk is not the one server/render/react-chunk-length.ts replaces; ` +
        'check the new build and docs/decisions/0216-react-measures-chunks-by-length.md',
    );
  return source.replace(MEASURED_IN_BYTES, MEASURED_IN_LENGTH);
}
