import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { sendApiError } from './api-reply.ts';

/**
 * The error handler of a JSON route group: input its schemas refuse becomes a 400 in the API's error
 * shape, with the group's own sentence for the field when it has one; other client errors keep
 * their status; anything else is logged and answered without its message.
 */
export function apiErrorHandler(
  fieldMessages: Readonly<Record<string, string>> = {},
  statusMessages: Readonly<Record<number, string>> = {},
) {
  return (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const [first] = error.validation ?? [];
    if (first) {
      const missing = (first.params as { missingProperty?: string }).missingProperty;
      const field = missing ?? first.instancePath.split('/')[1] ?? '';
      return sendApiError(
        reply,
        400,
        fieldMessages[field] ?? `${error.validationContext ?? 'request'} ${error.message}`,
      );
    }
    if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500)
      return sendApiError(reply, error.statusCode, statusMessages[error.statusCode] ?? error.message);
    request.log.error({ err: error }, 'API request failed');
    return sendApiError(reply, 500, 'Internal Server Error');
  };
}
