/**
 * Console output of the layer. Public messages carry 3.2.5's prefix; debug lines (every message
 * in and out, ignored messages) print only when the configuration's `debug` is on.
 */
const PREFIX = 'Live_Preview_SDK:';
let debugOn = false;

export const logger = {
  setDebug(on: boolean): void {
    debugOn = on;
  },
  debug(...args: unknown[]): void {
    if (debugOn) console.debug(PREFIX, ...args);
  },
  warn(...args: unknown[]): void {
    console.warn(PREFIX, ...args);
  },
  error(...args: unknown[]): void {
    console.error(PREFIX, ...args);
  },
};
