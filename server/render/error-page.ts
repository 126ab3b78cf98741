import { STATUS_CODES } from 'node:http';
import type { FastifyReply } from 'fastify';
import { createElement } from 'react';
import { ErrorDocument } from '../../client/document.tsx';
import type { MessageCatalog, Translate } from '../../client/i18n/messages.ts';
import { documentTitle } from '../../client/page/head.ts';
import type { ErrorModel } from '../../client/page/model.ts';
import { Render } from '../../client/render/context.ts';
import type { Site, SitesConfig } from '../../common/site.ts';
import { homePath } from '../routing/strategy.ts';
import type { AssetManifest } from './assets.ts';
import { createRenderContext } from './context.ts';
import { streamDocument } from './stream.ts';

interface ErrorDeps {
  sites: SitesConfig;
  messages: MessageCatalog;
  assets: AssetManifest;
  dev: boolean;
}

/**
 * The error page: a not-found variant for 404 and a server-error variant otherwise, in `locale` (the
 * URL's, see localeOfUrl), its home link to that language's home on `site` (`/` without a storefront).
 * The title is the translated standard one; the description is the message, rendered as text (React
 * escapes it), so no request input ever reaches the page unescaped. Never cached.
 */
export async function sendError(
  reply: FastifyReply,
  deps: ErrorDeps,
  input: { status: number; message: string; path: string; locale: string; site?: Site | null },
): Promise<FastifyReply> {
  const t = await deps.messages.translator(input.locale);
  const notFound = input.status === 404;
  const title = statusTitle(input.status, t);
  const description = input.message || (notFound ? t('error.notFound.description') : t('error.server.description'));
  const model: ErrorModel = {
    kind: 'error',
    status: input.status,
    locale: input.locale,
    title,
    description,
    path: input.path.length > 200 ? `${input.path.slice(0, 200)}…` : input.path,
    head: {
      title: documentTitle(`${input.status} ${input.message || title}`, deps.sites.titleSeparator, deps.sites.siteName),
      robots: 'noindex',
    },
    brand: { name: deps.sites.siteName, homeHref: input.site ? homePath(input.site, input.locale) : '/' },
  };
  const context = createRenderContext({ locale: input.locale, t, preview: false, assets: deps.assets, dev: deps.dev });
  const element = createElement(
    Render.Provider,
    { value: context },
    createElement(ErrorDocument, { model, assets: deps.assets.documentAssets('default', []) }),
  );
  const stream = await streamDocument(element, () => {});
  if (input.status === 503) reply.header('retry-after', '30');
  return reply.status(input.status).header('cache-control', 'no-store').type('text/html; charset=utf-8').send(stream);
}

/** The heading names the status of the status line: a 400 is never titled "Internal Server Error". */
export function statusTitle(status: number, t: Translate): string {
  switch (status) {
    case 400:
      return t('error.badRequest.title');
    case 404:
      return t('error.notFound.title');
    case 414:
      return t('error.uriTooLong.title');
    case 500:
      return t('error.server.title');
    case 503:
      return t('error.unavailable.title');
    default:
      return STATUS_CODES[status] ?? t('error.server.title');
  }
}
