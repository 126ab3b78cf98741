import type { FieldType } from './field-type.ts';

/**
 * Keyboard rules for fields edited in place: a number field takes only what can
 * still make a number, a single-line field never takes Enter, and a paste is plain text.
 */

export interface KeyPress {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
}

const CONTROL_KEYS: ReadonlySet<string> = new Set([
  'Backspace',
  'Tab',
  'Enter',
  'End',
  'Home',
  'ArrowLeft',
  'ArrowRight',
  'ArrowUp',
  'ArrowDown',
  'Delete',
]);
const NUMBER_CHARS = /^[0-9eE.-]$/;
/** Optional minus, digits, optional decimal part, optional exponent; partial input allowed while typing. */
const NUMBER_TEXT = /^-?\d*(\.\d*)?([eE]-?\d*)?$/;

/**
 * Whether the key press must be blocked, given the field's text and the selection it replaces
 * (offsets into `text`).
 */
export function blocksKey(type: FieldType, press: KeyPress, text: string, start = text.length, end = start): boolean {
  if (type === 'singleline') return press.key === 'Enter';
  if (type !== 'number') return false;
  if (CONTROL_KEYS.has(press.key) || press.ctrlKey || press.metaKey || press.altKey) return false;
  if (!NUMBER_CHARS.test(press.key)) return true;
  return !NUMBER_TEXT.test(text.slice(0, start) + press.key + text.slice(end));
}

/**
 * What a paste inserts (plain text only): the clipboard's text, with line breaks
 * kept in a multiline field and a break and its surrounding spaces made one space elsewhere.
 */
export function pastedText(type: FieldType, text: string): string {
  return type === 'multiline' ? text.replace(/\r\n?/g, '\n') : text.replace(/\s*[\r\n]+\s*/g, ' ');
}
