# syntax=docker/dockerfile:1
# Vitrine: Fastify + React SSR storefront. Two stages: build everything, then run with production
# dependencies only (docs/decisions/0004-docker-runtime-stage.md). test/docker.test.ts reproduces
# the runtime stage outside Docker: keep its COPY, ENV and CMD lines in the simple forms it parses.

# ---- build: dev dependencies, Vite client build (manifest + .br/.gz twins), server bundle ----
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
# Islands hydrate with React DOM; `--build-arg ISLAND_RUNTIME=preact` builds the preact/compat variant.
ARG ISLAND_RUNTIME=react
RUN npm run build

# ---- runtime: production dependencies, the build output and the data the server reads ----
FROM node:24-bookworm-slim AS runtime
ENV NODE_ENV=production
ENV HOST=0.0.0.0
ENV PORT=3000
WORKDIR /app
COPY package.json package-lock.json ./
# Optional dependencies included: sharp's native build is one (the image route, decision 0157);
# the registry's Node binary, the other, is removed, as the base image brings Node 24.
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund && rm -rf node_modules/node-linux-* node_modules/.bin/node && npm cache clean --force
# Everything below is read relative to the working directory, as `npm start` reads it: the server
# bundle, the browser build (its .vite/manifest.json is read at start-up), the storefronts, the
# embedded content store, the message catalogues and the demo images. Owned by root, read-only to
# the `node` user.
COPY --from=build /app/dist/server ./dist/server
COPY --from=build /app/dist/client ./dist/client
COPY --from=build /app/config ./config
COPY --from=build /app/content ./content
COPY --from=build /app/locales ./locales
COPY --from=build /app/public ./public
# Runs with a read-only root filesystem (`docker run --read-only`): nothing is written outside
# /app/content, where drafts and workbench publishes go; mount a volume there when those are used
# (owned by uid 1000). docs/operations.md lists the mounts, probes and ports.
USER node
# 3000: the storefronts; 9464: Prometheus /metrics (METRICS_PORT), on loopback unless METRICS_HOST
# is set (0.0.0.0 to let a scraper on the cluster network in; keep the port unpublished).
EXPOSE 3000 9464
# Liveness. Slim images have no curl: node's own fetch. Exit 0 only on a 2xx from /healthcheck.
# (Readiness, /readyz, is for load balancers: it turns 503 while starting and draining.)
HEALTHCHECK --interval=30s --timeout=5s --start-period=15s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/healthcheck',{signal:AbortSignal.timeout(4000)}).then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
CMD ["node", "dist/server/main.js"]
