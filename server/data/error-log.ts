import type { FastifyBaseLogger } from 'fastify';
import { GraphQLError } from 'graphql';
import mercurius, { type MercuriusCommonOptions, type MercuriusContext } from 'mercurius';

type ErrorFormatter = NonNullable<MercuriusCommonOptions['errorFormatter']>;

/** mercurius's own formatter logs each error with its stack at info; it gets a logger that drops them. */
const silent = { info() {} };

/**
 * A failed GraphQL request makes one warn line: the operation's name and the error messages, with
 * no stack for errors the client caused (syntax, validation, limits, bad arguments), which a client
 * can provoke at will. An error the server caused is logged on its own at error level, with its
 * stack. What the client receives is mercurius's usual answer.
 */
export function summarisingErrorFormatter(): ErrorFormatter {
  return (execution, context) => {
    const { reply } = context as MercuriusContext;
    const log: FastifyBaseLogger = reply?.log ?? (context as MercuriusContext).app.log;
    const formatted = mercurius.defaultErrorFormatter(execution, { reply: { log: silent } } as never);
    const messages = (formatted.response.errors ?? []).map((error) => error.message);
    log.warn(
      { operationName: operationNameOf(reply?.request), errors: messages.slice(0, 10), count: messages.length },
      'GraphQL request failed',
    );
    for (const error of execution.errors) {
      if (!causedByClient(error)) log.error({ err: error.originalError ?? error }, 'GraphQL resolver failed');
    }
    return formatted;
  };
}

function operationNameOf(request: { body?: unknown; query?: unknown } | undefined): string | null {
  for (const params of [request?.body, request?.query]) {
    const name = (params as { operationName?: unknown } | undefined)?.operationName;
    if (typeof name === 'string') return name.slice(0, 100);
  }
  return null;
}

/**
 * Syntax and validation errors carry no original error; errors the resolvers raise on purpose carry
 * a code (BAD_USER_INPUT, FORBIDDEN…) or a 4xx status. Anything else is a fault of ours.
 */
function causedByClient(error: GraphQLError): boolean {
  const original = error.originalError as (Error & { statusCode?: number }) | undefined;
  if (!original || original instanceof GraphQLError) return true;
  if (error.extensions?.code !== undefined) return true;
  return original.statusCode !== undefined && original.statusCode < 500;
}
