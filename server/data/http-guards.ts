import type { FastifyInstance } from 'fastify';
import { graphqlErrors } from '../errors.ts';
import { createGetAllowList, GET_QUERIES } from './get-queries.ts';
import { responseTooLargeError } from './response-size.ts';

/**
 * What GraphQL over HTTP may be asked and may answer, as hooks on the data plugin's routes:
 * anything but POST carries only the islands' own queries, and no answer is larger than
 * `maxResponseBytes`.
 */
export function guardGraphQLHttp(app: FastifyInstance, options: { maxResponseBytes: number }) {
  const allowedWithoutBody = createGetAllowList(GET_QUERIES);
  // GET (and the HEAD Fastify adds to it) can be sent by any page a visitor opens.
  app.addHook('preHandler', async (request, reply) => {
    if (request.method === 'POST') return;
    if (allowedWithoutBody((request.query as { query?: unknown } | null)?.query)) return;
    return reply
      .code(405)
      .header('allow', 'POST')
      .header('cache-control', 'no-store')
      .send({ data: null, errors: [graphqlErrors.getNotAllowed()] });
  });

  // A result past the ceiling is replaced by an error saying so; the status stays mercurius's.
  app.addHook('onSend', async (_request, reply, payload) => {
    if (typeof payload !== 'string') return payload;
    const bytes = Buffer.byteLength(payload);
    if (bytes <= options.maxResponseBytes) return payload;
    reply.header('cache-control', 'no-store');
    return JSON.stringify({ data: null, errors: [responseTooLargeError(bytes, options.maxResponseBytes).toJSON()] });
  });
}
