import type { FastifyBaseLogger } from 'fastify';
import { GraphQLError } from 'graphql';
import { LRUCache } from 'lru-cache';
import mercurius, { type MercuriusCommonOptions, type MercuriusContext } from 'mercurius';

type ErrorFormatter = NonNullable<MercuriusCommonOptions['errorFormatter']>;

/** mercurius's own formatter logs each error with its stack at info; it gets a logger that drops them. */
const silent = { info() {} };

/** Characters of one error message logged: messages quote the client's field names and values. */
export const LOGGED_MESSAGE_LENGTH = 200;

export interface ErrorLogLimits {
  /** Failed requests logged per client address each minute; the first one past it says so. */
  perAddress: number;
  /** Failed requests logged each minute over all addresses (an attacker may have many). */
  total: number;
}

export const ERROR_LOG_LIMITS: ErrorLogLimits = { perAddress: 10, total: 600 };

/**
 * A failed GraphQL request makes one warn line: the operation's name and the error messages, with
 * no stack for errors the client caused (syntax, validation, limits, bad arguments), which a client
 * can provoke at will. An error the server caused is logged on its own at error level, with its
 * stack. What the client receives is mercurius's usual answer. What is logged is trimmed and
 * budgeted per client address and in total, per minute: the log is not the client's to fill.
 */
export function summarisingErrorFormatter(limits: ErrorLogLimits = ERROR_LOG_LIMITS): ErrorFormatter {
  const budget = logBudget(limits);
  return (execution, context) => {
    const { reply } = context as MercuriusContext;
    const log: FastifyBaseLogger = reply?.log ?? (context as MercuriusContext).app.log;
    const formatted = mercurius.defaultErrorFormatter(execution, { reply: { log: silent } } as never);
    const allowed = budget(reply?.request?.ip ?? '');
    if (allowed === 'silent') return formatted;
    if (allowed === 'last') {
      log.warn(
        { limit: limits.perAddress },
        'GraphQL request failed: further failures from this address or past the total are not logged this minute',
      );
      return formatted;
    }
    const messages = (formatted.response.errors ?? []).map((error) => trim(error.message));
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

function trim(message: string): string {
  return message.length > LOGGED_MESSAGE_LENGTH ? `${message.slice(0, LOGGED_MESSAGE_LENGTH)}…` : message;
}

/**
 * Whether a failure from `address` is logged: 'yes' within both budgets, 'last' for the first one
 * past its address's (the line saying the rest are not), 'silent' after. Addresses are kept for a
 * minute in a bounded LRU: one that is pushed out (by many others) starts again, within the total.
 */
export function logBudget(limits: ErrorLogLimits) {
  const MINUTE = 60_000;
  const perAddress = new LRUCache<string, { logged: number }>({ max: 10_000, ttl: MINUTE });
  let total = 0;
  let window = 0;
  return (address: string): 'yes' | 'last' | 'silent' => {
    const now = Date.now();
    if (now - window >= MINUTE) {
      window = now;
      total = 0;
    }
    let entry = perAddress.get(address);
    if (!entry) {
      entry = { logged: 0 };
      perAddress.set(address, entry);
    }
    entry.logged++;
    if (entry.logged > limits.perAddress + 1 || total > limits.total) return 'silent';
    total++;
    return entry.logged > limits.perAddress || total > limits.total ? 'last' : 'yes';
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
