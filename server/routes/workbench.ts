import { relative } from 'node:path';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyReply } from 'fastify';
import sjson from 'secure-json-parse';
import type { PageEntry } from '../../common/content.ts';
import type { Site, SitesConfig } from '../../common/site.ts';
import { draftKey, isDraftAddress } from '../content/draft-store.ts';
import { entryProblem } from '../content/entry-checks.ts';
import { contentFile, isValidKey, isValidPreviewHash } from '../content/paths.ts';
import type { EmbeddedStore } from '../content/store.ts';
import { writeAtomically } from '../content/write-atomically.ts';
import { apiErrors } from '../errors.ts';
import { apiErrorHandler } from '../http/api-errors.ts';
import { replies, requireBearer, sendApiError } from '../http/api-reply.ts';
import { limitOf } from '../http/rate-limits.ts';
import type { PreviewConfig } from '../preview/config.ts';
import { canonicalPagePath } from '../routing/canonical.ts';
import { bundle } from '../workbench/bundle.ts';
import { collabProblem } from '../workbench/collab.ts';
import { fieldSchemaMap } from '../workbench/field-schema.ts';

/**
 * The preview workbench: a small editor application at `/__workbench` that frames a
 * storefront page in preview mode and plays the editor's side of the protocol
 * (docs/decisions/0011-workbench.md). This file serves its page and script and the JSON API it
 * needs besides the draft API:
 *
 *   GET  /__workbench                          the page (holds no content; the API asks for the token)
 *   GET  /__workbench/workbench.js             the bundle (dist/workbench, or bundled from source when there is no build)
 *
 * Under `npm run dev` the page loads `workbench/main.ts` itself, transformed by Vite's middleware:
 * what runs is the source as it is now, never a build left over from an earlier `npm run build`.
 *   GET  /__workbench/api/catalog              storefronts, and the current storefront's pages per locale
 *   GET  /__workbench/api/entries              a page and its template, with a draft hash overlaid
 *   GET  /__workbench/api/field-schema/:type   `{fieldSchemaMap}` derived from the content schemas
 *   POST /__workbench/api/publish              promote one draft to published content
 *   GET  /__workbench/api/drafts?locale=       draft hashes holding entries of a locale (the compare view's choices)
 *   GET|PUT /__workbench/api/collab            a page's comment threads (a JSON file under the draft area)
 *
 * Every API call needs the draft API's bearer token. The workbench is same-origin with the
 * storefront it shows: picking another storefront opens the workbench on that storefront's host.
 */

export interface WorkbenchDeps {
  sites: SitesConfig;
  contentDir: string;
  store: EmbeddedStore;
  token: string | undefined;
  /** The built bundle's folder (dist/workbench). */
  bundleDir?: string;
  /** Vite's middleware serves the sources (development): the page loads `workbench/main.ts` as a module. */
  fromSource?: boolean;
}

export const WORKBENCH_PATH = '/__workbench';

/**
 * Editor origins with the workbench on: the configured ones, then every storefront host and alias on
 * the server's port, and localhost (the workbench is same-origin with the page it frames).
 */
export function withWorkbenchOrigins(preview: PreviewConfig, sites: SitesConfig, port: number): PreviewConfig {
  const origins = new Set(preview.editorOrigins);
  // localhost and 127.0.0.1 reach the forced host's storefront.
  const hosts = [...sites.sites.flatMap((site) => [site.host, ...site.aliases]), 'localhost', '127.0.0.1'];
  for (const host of hosts) origins.add(new URL(`http://${host}:${port}`).origin);
  // Behind a TLS proxy (WORKBENCH=on in production) the workbench has the storefront's public origin.
  for (const site of sites.sites) if (site.url) origins.add(new URL(site.url).origin);
  return { ...preview, editorOrigins: [...origins] };
}

/** The source Vite transforms in development (under Vite's base, /assets/). */
export const WORKBENCH_SOURCE = '/assets/workbench/main.ts';

const pageHtml = (fromSource: boolean) => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>Vitrine preview workbench</title>
${fromSource ? `<script type="module" src="${WORKBENCH_SOURCE}"></script>` : `<script src="${WORKBENCH_PATH}/workbench.js" defer></script>`}
</head>
<body><div id="workbench"></div></body>
</html>
`;

interface PageSummary {
  uuid: string;
  title: string;
  path: string;
}

/** The pages of one locale, as the store lists them (by number), with their titles and paths. */
async function pagesOf(deps: WorkbenchDeps, site: Site, locale: string): Promise<PageSummary[]> {
  const pages: PageSummary[] = [];
  for (const uuid of await deps.store.listPages(locale)) {
    const page = await deps.store.getPage(uuid, locale).catch(() => null);
    if (page) pages.push({ uuid, title: page.title, path: canonicalPagePath(site, locale, page) });
  }
  return pages;
}

const REQUIRED = () => apiErrors.fieldsRequired('hash, locale, type and id');
/** A draft named in full: which hash, and the locale, type and id of its entry. */
const DraftName = Type.Object({ hash: Type.String(), locale: Type.String(), type: Type.String(), id: Type.String() });
/** A page of the current storefront; whether it is one is the handler's question (its message names why). */
const PageQuery = Type.Object({ locale: Type.String({ default: '' }), uuid: Type.String({ default: '' }) });
/** The comment threads of a page; `collabProblem` reads them field by field. */
const Threads = Type.Object({ threads: Type.Array(Type.Unknown()), comments: Type.Array(Type.Unknown()) });

export const workbenchRoutes: FastifyPluginAsyncTypebox<WorkbenchDeps> = async (app, deps) => {
  app.setErrorHandler(
    apiErrorHandler({
      hash: REQUIRED,
      locale: REQUIRED,
      type: REQUIRED,
      id: REQUIRED,
      threads: () => apiErrors.threadsInvalid({ path: '$.threads', message: 'Expected array' }),
      comments: () => apiErrors.threadsInvalid({ path: '$.comments', message: 'Expected array' }),
    }),
  );
  const noStore = (reply: FastifyReply) =>
    reply
      .header('cache-control', 'no-store')
      .header('x-robots-tag', 'noindex')
      .header('referrer-policy', 'no-referrer');
  const guarded = {
    preParsing: requireBearer(deps.token, apiErrors.tokenRequired),
    config: limitOf(app, 'workbench'),
  };

  const page = pageHtml(deps.fromSource === true);
  // "Open in a new tab": helmet's same-origin policy would cut the preview tab from the workbench
  // that opened it; allowing popups keeps it the tab's opener (live-preview-utils 4.x new tab).
  app.get(WORKBENCH_PATH, async (_request, reply) =>
    noStore(reply)
      .header('cross-origin-opener-policy', 'same-origin-allow-popups')
      .type('text/html; charset=utf-8')
      .send(page),
  );

  let script: Promise<string | null> | undefined;
  app.get(`${WORKBENCH_PATH}/workbench.js`, async (request, reply) => {
    script ??= bundle(deps);
    const text = await script.catch((error: unknown) => {
      request.log.error({ err: error }, 'Workbench bundle failed');
      script = undefined;
      return null;
    });
    if (text === null) return sendApiError(reply, apiErrors.workbenchNotBuilt());
    return noStore(reply).type('text/javascript; charset=utf-8').send(text);
  });

  app.get(`${WORKBENCH_PATH}/api/catalog`, guarded, async (request, reply) => {
    const site = request.site;
    const pages: Record<string, PageSummary[]> = {};
    for (const locale of site.locales) pages[locale] = await pagesOf(deps, site, locale);
    return noStore(reply).send({
      storefronts: deps.sites.sites.map((s) => ({
        host: s.host,
        aliases: s.aliases,
        locales: s.locales,
        defaultLocale: s.defaultLocale,
      })),
      current: site.host,
      pages,
    });
  });

  app.get(
    `${WORKBENCH_PATH}/api/entries`,
    {
      ...guarded,
      schema: { querystring: Type.Intersect([PageQuery, Type.Object({ hash: Type.Optional(Type.String()) })]) },
    },
    async (request, reply) => {
      const { locale, uuid, hash } = request.query;
      if (!request.site.locales.includes(locale)) return sendApiError(reply, apiErrors.localeInvalid());
      if (!contentFile(deps.contentDir, { kind: 'page', locale, uuid }))
        return sendApiError(reply, apiErrors.uuidInvalid());
      if (hash !== undefined && !isValidPreviewHash(hash)) return sendApiError(reply, apiErrors.hashInvalid(1));
      const page = (await deps.store.getPage(uuid, locale, hash)) as PageEntry | null;
      if (!page) return sendApiError(reply, apiErrors.pageNotFound());
      const ref = page.template[0];
      const template = ref ? await deps.store.getEntry(ref._content_type_uid, ref.uid, locale, hash) : null;
      return noStore(reply).send({
        page,
        path: canonicalPagePath(request.site, locale, page),
        template: ref && template ? { type: ref._content_type_uid, uid: ref.uid, entry: template } : null,
      });
    },
  );

  const fieldSchemaOptions = {
    ...guarded,
    schema: {
      params: Type.Object({ type: Type.String() }),
      response: replies({ 200: Type.Object({ fieldSchemaMap: Type.Record(Type.String(), Type.Unknown()) }) }),
    },
  };
  app.get(`${WORKBENCH_PATH}/api/field-schema/:type`, fieldSchemaOptions, async (request, reply) => {
    const map = fieldSchemaMap(request.params.type);
    if (!map) return sendApiError(reply, apiErrors.contentTypeUnknown());
    return noStore(reply).send({ fieldSchemaMap: map });
  });

  const draftsOptions = {
    ...guarded,
    schema: {
      querystring: Type.Pick(PageQuery, ['locale']),
      response: replies({ 200: Type.Object({ hashes: Type.Array(Type.String()) }) }),
    },
  };
  app.get(`${WORKBENCH_PATH}/api/drafts`, draftsOptions, async (request, reply) => {
    const { locale } = request.query;
    if (!request.site.locales.includes(locale)) return sendApiError(reply, apiErrors.localeInvalid());
    return noStore(reply).send({ hashes: await deps.store.drafts.hashes(locale) });
  });

  app.get(
    `${WORKBENCH_PATH}/api/collab`,
    { ...guarded, schema: { querystring: PageQuery, response: replies({ 200: Threads }) } },
    async (request, reply) => {
      const { locale, uuid } = request.query;
      if (!request.site.locales.includes(locale) || !isValidKey({ kind: 'page', locale, uuid }))
        return sendApiError(reply, apiErrors.addressInvalid('locale or uuid'));
      const text = await deps.store.drafts.readThreads(locale, uuid);
      const value =
        text === null ? { threads: [], comments: [] } : sjson.parse(text, undefined, { protoAction: 'remove' });
      return noStore(reply).send(value);
    },
  );

  app.put(
    `${WORKBENCH_PATH}/api/collab`,
    { ...guarded, schema: { querystring: PageQuery, body: Threads } },
    async (request, reply) => {
      const { locale, uuid } = request.query;
      if (!request.site.locales.includes(locale) || !isValidKey({ kind: 'page', locale, uuid }))
        return sendApiError(reply, apiErrors.addressInvalid('locale or uuid'));
      const problem = collabProblem(request.body);
      if (problem) return sendApiError(reply, apiErrors.threadsInvalid(problem));
      const { threads, comments } = request.body;
      await deps.store.drafts.writeThreads(locale, uuid, `${JSON.stringify({ threads, comments }, null, 2)}\n`);
      return reply.status(204).header('cache-control', 'no-store').send();
    },
  );

  app.post(`${WORKBENCH_PATH}/api/publish`, { ...guarded, schema: { body: DraftName } }, async (request, reply) => {
    const { hash, locale, type, id } = request.body;
    const key = draftKey(type, id, locale);
    const target = contentFile(deps.contentDir, key);
    if (!isDraftAddress(hash, key) || !target)
      return sendApiError(reply, apiErrors.addressInvalid('hash, locale, type or id'));
    const text = await deps.store.drafts.read(hash, key);
    if (text === null) return sendApiError(reply, apiErrors.draftNotFound());
    let value: unknown;
    try {
      value = sjson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' });
    } catch (error) {
      return sendApiError(reply, apiErrors.jsonInvalid((error as Error).message));
    }
    const problem = entryProblem(type, id, locale, value);
    if (problem) return sendApiError(reply, apiErrors.contentInvalid(problem));
    await writeAtomically(target, `${JSON.stringify(value, null, 2)}\n`);
    // Promoted: the draft would only mask later published changes.
    await deps.store.drafts.remove(hash, key);
    deps.store.changes.announce({ origin: 'publish', entries: [{ type, uid: id, locale }] });
    request.log.info({ published: relative(deps.contentDir, target) }, 'Draft published');
    return noStore(reply).send({ published: relative(deps.contentDir, target) });
  });
};
