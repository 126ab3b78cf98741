import { GraphQLError } from 'graphql';

/**
 * The largest serialised GraphQL result one operation may send, over HTTP or the socket. The cost
 * limit keeps results to a few hundred KB with today's content; long CMS strings could still add
 * up, and a visitor's page never needs more than a few KB.
 */
export const MAX_RESPONSE_BYTES = 1024 * 1024;

/** What is sent instead of a result of `bytes` bytes: an error, so the client learns why. */
export function responseTooLargeError(bytes: number, max: number): GraphQLError {
  return new GraphQLError(
    `Response too large: the result is ${bytes} bytes, at most ${max} are sent; ask for fewer products or fields`,
    { extensions: { code: 'RESPONSE_TOO_LARGE' } },
  );
}
