import { GraphQLError } from 'graphql';

/**
 * How deeply a query's text may nest brackets, braces and parentheses before it is parsed. The
 * parser recurses once per level, so a list literal thousands deep (`[[[[…]]]]`) overflows the call
 * stack; far below that, no query the schema can answer nests more than a dozen levels.
 */
export const MAX_QUERY_NESTING = 32;

/**
 * The error for a query nesting deeper than `max`, naming the line and column where it does, or
 * undefined. A lexical scan: strings, block strings and comments are skipped, so brackets in them
 * do not count.
 */
export function queryNestingError(source: string, max = MAX_QUERY_NESTING): GraphQLError | undefined {
  let depth = 0;
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < source.length; i++) {
    const char = source[i];
    if (char === '\n' || char === '\r') {
      // A line ends at \n, \r or \r\n (GraphQL's line terminators).
      if (char === '\r' && source[i + 1] === '\n') i++;
      line++;
      lineStart = i + 1;
    } else if (char === '#') {
      while (i + 1 < source.length && source[i + 1] !== '\n' && source[i + 1] !== '\r') i++;
    } else if (char === '"') {
      const block = source.startsWith('"""', i);
      const end = block ? blockStringEnd(source, i + 3) : stringEnd(source, i + 1);
      for (let j = i; j < end; j++) {
        if (source[j] === '\n' || (source[j] === '\r' && source[j + 1] !== '\n')) {
          line++;
          lineStart = j + 1;
        }
      }
      i = end - 1;
    } else if (char === '[' || char === '{' || char === '(') {
      depth++;
      if (depth > max) {
        return new GraphQLError(
          `Query nests more than ${max} levels of brackets (line ${line}, column ${i - lineStart + 1})`,
          { extensions: { code: 'QUERY_TOO_NESTED' } },
        );
      }
    } else if (char === ']' || char === '}' || char === ')') {
      depth = Math.max(0, depth - 1);
    }
  }
  return undefined;
}

/** Index just past the closing quote of a string whose content starts at `from` (escapes skipped). */
function stringEnd(source: string, from: number): number {
  for (let i = from; i < source.length; i++) {
    if (source[i] === '\\') i++;
    // A string ends at its quote, or (unterminated, a syntax error for the parser) at a line's end.
    else if (source[i] === '"' || source[i] === '\n' || source[i] === '\r') return i + 1;
  }
  return source.length;
}

function blockStringEnd(source: string, from: number): number {
  for (let i = from; i < source.length; i++) {
    if (source[i] === '\\' && source.startsWith('\\"""', i)) i += 3;
    else if (source.startsWith('"""', i)) return i + 3;
  }
  return source.length;
}
