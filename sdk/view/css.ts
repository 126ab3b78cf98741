/**
 * A stylesheet written as readable CSS. At run time the text as written (raw: a CSS escape stays a
 * CSS escape); the SDK build minifies every `css` literal without interpolations or escapes
 * (vite.sdk.config.ts), as it would a CSS file, so the chunks carry no indentation.
 */
export const css = (strings: TemplateStringsArray, ...values: unknown[]): string => String.raw(strings, ...values);
