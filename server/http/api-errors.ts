import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { apiErrors, type SiteError } from '../errors.ts';
import { sendApiError } from './api-reply.ts';

/**
 * The error handler of a JSON route group: input its schemas refuse becomes a 400 in the API's error
 * shape, with the group's own catalogue error for the field when it has one; other client errors
 * keep their status (the group's own error for it, or Fastify's sentence under a generic code);
 * anything else is logged and answered without its message.
 */
export function apiErrorHandler(
  fieldErrors: Readonly<Record<string, () => SiteError>> = {},
  statusErrors: Readonly<Record<number, () => SiteError>> = {},
) {
  return (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const [first] = error.validation ?? [];
    if (first) {
      // The top-level field the refusal is about, however deep in it the schema looked.
      const missing = (first.params as { missingProperty?: string }).missingProperty;
      const field = first.instancePath.split('/')[1] || missing || '';
      const own = fieldErrors[field];
      return sendApiError(
        reply,
        own ? own() : apiErrors.requestInvalid(`${error.validationContext ?? 'request'} ${error.message}`),
      );
    }
    if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
      const own = statusErrors[error.statusCode];
      return sendApiError(reply, own ? own() : apiErrors.requestRefused(error.statusCode, error.message));
    }
    request.log.error({ err: error }, 'API request failed');
    return sendApiError(reply, apiErrors.internal());
  };
}
