import type { FastifyPluginAsync } from 'fastify';

/** 200 for any Host, so orchestrators can probe with `localhost`. */
export const healthRoutes: FastifyPluginAsync = async (app) => {
  app.get('/healthcheck', { config: { anyHost: true, probe: true } }, async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    return { status: 'ok' };
  });
};
