import type { FastifyBaseLogger } from 'fastify';
import { createElement, type ReactElement } from 'react';
import { ComponentList } from '../../client/components/registry.tsx';
import { PageDocument } from '../../client/document.tsx';
import type { Translate } from '../../client/i18n/messages.ts';
import type { PageModel } from '../../client/page/model.ts';
import { Render } from '../../client/render/context.ts';
import type { ComponentEntry } from '../../common/content.ts';
import type { ImageSrcSet } from '../images/srcset.ts';
import type { AssetManifest } from './assets.ts';
import { createRenderContext } from './context.ts';

/** What turning an assembled page into React needs. */
export interface ElementDeps {
  assets: AssetManifest;
  dev: boolean;
  dataEndpoint?: string;
  imageSrcSet?: ImageSrcSet;
}

/**
 * The React tree of an assembled page. Render state (cited footnotes) lives in its context, so each
 * render needs its own element; the bench's renderToString floor renders exactly this tree.
 */
export function pageElement(
  deps: ElementDeps,
  model: PageModel,
  t: Translate,
  log: Pick<FastifyBaseLogger, 'warn'>,
): ReactElement {
  const context = pageRenderContext(deps, model, t);
  return createElement(
    Render.Provider,
    { value: context },
    createElement(PageDocument, {
      model,
      assets: deps.assets.documentAssets(model.layout, model.islands),
      runtimeData: {
        build: deps.assets.build,
        messages: { updateAvailable: t('build.updateAvailable'), reload: t('build.reload') },
      },
      onUnknown: deps.dev
        ? (kind: string) => log.warn({ type: kind }, 'Unknown component type renders nothing')
        : undefined,
    }),
  );
}

function pageRenderContext(deps: ElementDeps, model: PageModel, t: Translate) {
  return createRenderContext({
    locale: model.locale,
    t,
    preview: model.preview,
    assets: deps.assets,
    footnote: (id) => model.footnotes.get(id),
    firstHeroUid: model.zones.body.find((c) => c._content_type_uid === 'hero')?.uid,
    dev: deps.dev,
    dataEndpoint: deps.dataEndpoint,
    ...(deps.imageSrcSet ? { imageSrcSet: deps.imageSrcSet } : {}),
  });
}

/** One component of an assembled page on its own, in the page's render context. */
export function componentElement(
  deps: ElementDeps,
  model: PageModel,
  t: Translate,
  component: ComponentEntry,
  zone: string,
): ReactElement {
  return createElement(
    Render.Provider,
    { value: pageRenderContext(deps, model, t) },
    createElement(ComponentList, { components: [component], zone: `${zone}_components`, base: model.cslpBase }),
  );
}
