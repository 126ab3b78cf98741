import { HTMLElement } from 'happy-dom';

/**
 * Test support (never bundled): the globals browser libraries may name that Node lacks. morphdom
 * (sdk/view/render.ts) compares callback results with the global `HTMLElement`, which every browser
 * has. Imported for its effect by the support modules that make windows.
 */
const globals = globalThis as { HTMLElement?: unknown };
globals.HTMLElement ??= HTMLElement;
