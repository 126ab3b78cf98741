import { maxAliasesRule } from '@escape.tech/graphql-armor-max-aliases';
import { maxDirectivesRule } from '@escape.tech/graphql-armor-max-directives';
import {
  type ASTVisitor,
  GraphQLError,
  type ParseOptions,
  type ValidationContext,
  type ValidationRule,
  visitInParallel,
} from 'graphql';
import { queryNestingError } from './query-nesting.ts';

/**
 * Bounds on the GraphQL document itself, checked before anything walks it: its text before it is
 * parsed, the parser's own token limit while it is, and the number of fields, aliases and directives
 * before graphql-js's validation runs (OverlappingFieldsCanBeMerged compares every pair of fields with
 * one name: 480 copies of a field took 100–350 ms). The island queries are about 200 characters,
 * 50 tokens and 12 fields; everything here is several times that.
 */

/** Characters of query text. */
export const MAX_QUERY_LENGTH = 8 * 1024;
/** Lexical tokens, enforced by graphql-js's parser (a 16 KB default value list was 8,000). */
export const MAX_TOKENS = 1_000;
/** Field selections in the document, each counted once where it is written. */
export const MAX_FIELDS = 64;
export const MAX_ALIASES = 20;
export const MAX_DIRECTIVES = 20;

/**
 * How every document is parsed, over HTTP and the socket. Without locations, a document's AST is
 * not linked to its token list, so a parsed document (and each cached one) holds its nodes only.
 */
export const PARSE_OPTIONS: ParseOptions = { maxTokens: MAX_TOKENS, noLocation: true };

/** Why `source` is refused before it is parsed, or undefined. */
export function querySourceError(source: string): GraphQLError | undefined {
  if (source.length > MAX_QUERY_LENGTH) {
    return new GraphQLError(`Query too long: at most ${MAX_QUERY_LENGTH} characters`, {
      extensions: { code: 'QUERY_TOO_LONG' },
    });
  }
  // mercurius takes query text that does not parse as GraphQL but does as JSON for a ready AST, which
  // would skip the parser's limits and reach validation malformed. No GraphQL document is valid JSON.
  if (isJson(source)) {
    return new GraphQLError('Query refused: it is not GraphQL text', { extensions: { code: 'QUERY_NOT_GRAPHQL' } });
  }
  return queryNestingError(source);
}

function isJson(source: string): boolean {
  try {
    JSON.parse(source);
    return true;
  } catch {
    return false;
  }
}

/** Refuses a document with more than `max` field selections (fragments counted once, where written). */
function maxFieldsVisitor(context: ValidationContext, max: number): ASTVisitor {
  let fields = 0;
  return {
    Field() {
      fields++;
      if (fields === max + 1) {
        context.reportError(
          new GraphQLError(`Query has too many fields: at most ${max}`, { extensions: { code: 'TOO_MANY_FIELDS' } }),
        );
      }
    },
  };
}

/** graphql-armor's rules report through this instead of throwing (a throw out of validation is a 500). */
function reportAs(code: string, message: string) {
  return [
    (context: ValidationContext | null) => context?.reportError(new GraphQLError(message, { extensions: { code } })),
  ];
}

/** Fields, aliases and directives: the walks before graphql-js's own validation, each linear. */
export const documentLimits: ValidationRule = (context) => {
  const aliases = maxAliasesRule({
    n: MAX_ALIASES,
    propagateOnRejection: false,
    onReject: reportAs('TOO_MANY_ALIASES', `Query has too many aliases: at most ${MAX_ALIASES}`),
  });
  const directives = maxDirectivesRule({
    n: MAX_DIRECTIVES,
    propagateOnRejection: false,
    onReject: reportAs('TOO_MANY_DIRECTIVES', `Query has too many directives: at most ${MAX_DIRECTIVES}`),
  });
  return visitInParallel([maxFieldsVisitor(context, MAX_FIELDS), aliases(context), directives(context)]);
};
