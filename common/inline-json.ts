/**
 * The one door for JSON placed inside HTML: island props, JSON-LD, preview state. Escapes `<`, `>`
 * and `&` (so `</script>` and `<!--` cannot end or confuse a script element) and U+2028/U+2029
 * (line terminators in older JavaScript parsers). The result is still valid JSON.
 */
const UNSAFE = /[<>&\u2028\u2029]/g;
const ESCAPES: Record<string, string> = {
  '<': '\\u003c',
  '>': '\\u003e',
  '&': '\\u0026',
  '\u2028': '\\u2028',
  '\u2029': '\\u2029',
};

export function serializeInlineJson(value: unknown): string {
  return JSON.stringify(value).replace(UNSAFE, (ch) => ESCAPES[ch] as string);
}
