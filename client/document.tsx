import type { ReactNode } from 'react';
import { ICONS, MANIFEST_PATH, THEME_COLOR } from '../common/icons.ts';
import { serializeInlineJson } from '../common/inline-json.ts';
import { BOOT_SCRIPT } from '../islands/boot-script.ts';
import Header from '../islands/header/Header.tsx';
import { RUNTIME_DATA_ID, type RuntimeData } from '../islands/runtime-data.ts';
import { ComponentList } from './components/registry.tsx';
import { LAYOUTS } from './layouts/layouts.ts';
import { breadcrumbJsonLd } from './page/breadcrumbs.ts';
import type { ErrorModel, PageModel, PreviewScript, SwitcherLink } from './page/model.ts';
import { useRender } from './render/context.ts';
import { Island } from './render/island.tsx';

/** What the document links: decided by the server from the build manifest and the page's islands. */
export interface DocumentAssets {
  stylesheet: string;
  /** The island runtime entry, or null on a page without islands (which then loads no script). */
  runtime: string | null;
  modulePreloads: string[];
  /** The other layouts' stylesheets, fetched at idle so a prefetched route finds its own ready. */
  stylesheetPrefetches: string[];
}

function Head({ title, children, assets }: { title: string; children?: ReactNode; assets: DocumentAssets }) {
  return (
    <head>
      <meta charSet="utf-8" />
      <meta name="viewport" content="width=device-width, initial-scale=1" />
      <title>{title}</title>
      <link rel="stylesheet" href={assets.stylesheet} />
      <link rel="icon" href={ICONS.favicon} sizes="32x32" />
      <link rel="icon" href={ICONS.svg} type="image/svg+xml" />
      <link rel="apple-touch-icon" href={ICONS.appleTouch} />
      <link rel="manifest" href={MANIFEST_PATH} />
      <meta name="theme-color" content={THEME_COLOR} />
      {assets.modulePreloads.map((href) => (
        <link key={href} rel="modulepreload" href={href} />
      ))}
      {assets.stylesheetPrefetches.map((href) => (
        <link key={href} rel="prefetch" as="style" href={href} />
      ))}
      {children}
    </head>
  );
}

/** Live preview: the config as JSON data, then the script that reads it; no inline code. */
function PreviewScriptTags({ script }: { script: PreviewScript }) {
  return (
    <>
      <script
        type="application/json"
        id={script.configId}
        dangerouslySetInnerHTML={{ __html: serializeInlineJson(script.config) }}
      />
      <script src={script.src} defer />
    </>
  );
}

function JsonLd({ value }: { value: object }) {
  return <script type="application/ld+json" dangerouslySetInnerHTML={{ __html: serializeInlineJson(value) }} />;
}

function Brand({ name, href }: { name: string; href: string }) {
  return (
    <header className="site-header site-header--logo">
      <a className="brand" href={href}>
        {name}
      </a>
    </header>
  );
}

function Switcher({ label, links, className }: { label: string; links: SwitcherLink[]; className: string }) {
  if (links.length < 2) return null;
  return (
    <nav className={className} aria-label={label}>
      <ul>
        {links.map((link) => (
          <li key={link.href + link.lang}>
            {/* No switch when the locale is unchanged, so the current one is not a link. */}
            {link.current ? (
              <span lang={link.lang} aria-current="true">
                {link.label}
              </span>
            ) : (
              <a href={link.href} hrefLang={link.lang} lang={link.lang}>
                {link.label}
              </a>
            )}
          </li>
        ))}
      </ul>
    </nav>
  );
}

function CountrySelector({ links }: { links: SwitcherLink[] }) {
  const { t } = useRender();
  const current = links.find((l) => l.current);
  if (links.length < 2) return null;
  // A native disclosure: opens by mouse, touch and keyboard without any script.
  return (
    <details className="country-selector">
      <summary>
        {t('switcher.country.button')}
        {current ? `: ${current.label}` : ''}
      </summary>
      <nav aria-label={t('switcher.country.label')}>
        <ul>
          {links.map((link) => (
            <li key={link.href + link.lang}>
              <a href={link.href} hrefLang={link.lang} aria-current={link.current ? 'true' : undefined}>
                {link.label}
              </a>
            </li>
          ))}
        </ul>
      </nav>
    </details>
  );
}

function Breadcrumbs({ model }: { model: PageModel }) {
  const { t } = useRender();
  return (
    <nav
      className="breadcrumbs"
      aria-label={t('breadcrumbs.label')}
      data-theme={model.breadcrumbsTheme.theme}
      data-background={model.breadcrumbsTheme.background}
    >
      <ol>
        {model.breadcrumbs.map((crumb, i) => (
          <li key={`${crumb.label}-${i}`}>
            {crumb.href ? <a href={crumb.href}>{crumb.label}</a> : <span aria-current="page">{crumb.label}</span>}
          </li>
        ))}
      </ol>
    </nav>
  );
}

export function PageDocument({
  model,
  assets,
  runtimeData,
  onUnknown,
}: {
  model: PageModel;
  assets: DocumentAssets;
  /** Only on pages that load the island runtime. */
  runtimeData?: RuntimeData;
  onUnknown?: (type: string) => void;
}) {
  const { t, cslp } = useRender();
  const layout = LAYOUTS[model.layout];
  const { head } = model;
  const crumbsLd =
    layout.breadcrumbs && head.canonical ? [breadcrumbJsonLd(model.breadcrumbs, head.canonical, head.canonical)] : [];
  return (
    <html lang={model.locale}>
      <Head title={head.title} assets={assets}>
        {head.description ? <meta name="description" content={head.description} /> : null}
        {head.robots ? <meta name="robots" content={head.robots} /> : null}
        {head.canonical ? <link rel="canonical" href={head.canonical} /> : null}
        {head.alternates.map((alt) => (
          <link key={alt.hreflang} rel="alternate" hrefLang={alt.hreflang} href={alt.href} />
        ))}
        {head.ogUrl ? <meta property="og:url" content={head.ogUrl} /> : null}
        <meta property="og:locale" content={head.ogLocale} />
        <meta property="og:title" content={head.ogTitle} />
        {head.ogDescription ? <meta property="og:description" content={head.ogDescription} /> : null}
        <meta property="og:type" content="website" />
        <meta property="og:site_name" content={head.siteName} />
        {head.image ? <meta property="og:image" content={head.image} /> : null}
        <meta name="twitter:card" content={head.twitterCard} />
        {head.twitterSite ? <meta name="twitter:site" content={head.twitterSite} /> : null}
        {head.image ? <meta name="twitter:image" content={head.image} /> : null}
        {[...head.jsonLd, ...crumbsLd].map((value, i) => (
          <JsonLd key={i} value={value} />
        ))}
        {model.previewScript ? <PreviewScriptTags script={model.previewScript} /> : null}
      </Head>
      <body data-layout={model.layout}>
        <a className="skip-link" href="#main">
          {t('a11y.skipToContent')}
        </a>
        {layout.switchers ? (
          <Switcher className="language-switcher" label={t('switcher.language.label')} links={model.languages} />
        ) : null}
        {layout.header === 'island' && model.header ? (
          <Island name="header" component={Header} props={model.header} strategy="interaction" />
        ) : layout.header !== 'none' ? (
          <Brand name={model.brand.name} href={model.brand.homeHref} />
        ) : null}
        <main id="main">
          {layout.breadcrumbs ? <Breadcrumbs model={model} /> : null}
          <h1 className="page-title" {...cslp(model.headingCslp)}>
            {model.heading}
          </h1>
          <ComponentList
            components={model.zones.header}
            zone="header_components"
            base={model.cslpBase}
            onUnknown={onUnknown}
          />
          <ComponentList
            components={model.zones.body}
            zone="body_components"
            base={model.cslpBase}
            onUnknown={onUnknown}
          />
        </main>
        {layout.footer ? (
          <footer className="site-footer">
            <ComponentList
              components={model.zones.footer}
              zone="footer_components"
              base={model.cslpBase}
              onUnknown={onUnknown}
            />
            {layout.switchers ? <CountrySelector links={model.countries} /> : null}
            <p className="copyright">
              {t('footer.copyright', { year: new Date().getFullYear(), brand: model.brand.name })}
            </p>
          </footer>
        ) : null}
        {assets.runtime && runtimeData ? (
          <script
            type="application/json"
            id={RUNTIME_DATA_ID}
            dangerouslySetInnerHTML={{ __html: serializeInlineJson(runtimeData) }}
          />
        ) : null}
        {/* Fetches the runtime only after the largest paint; allowed by its hash in the CSP (decision 0199). */}
        {assets.runtime ? <script data-src={assets.runtime} dangerouslySetInnerHTML={{ __html: BOOT_SCRIPT }} /> : null}
      </body>
    </html>
  );
}

export function ErrorDocument({ model, assets }: { model: ErrorModel; assets: DocumentAssets }) {
  const { t } = useRender();
  return (
    <html lang={model.locale}>
      <Head title={model.head.title} assets={assets}>
        <meta name="robots" content={model.head.robots} />
      </Head>
      <body data-layout="default" className="error-page">
        <Brand name={model.brand.name} href={model.brand.homeHref} />
        <main id="main" className={model.status === 404 ? 'error error--not-found' : 'error error--server'}>
          <p className="error-status">{model.status}</p>
          <h1>{model.title}</h1>
          <p className="error-description">{model.description}</p>
          {model.path ? <p className="error-path">{t('error.requestedPath', { path: model.path })}</p> : null}
          <a className="button" href={model.brand.homeHref}>
            {t('error.backHome')}
          </a>
        </main>
      </body>
    </html>
  );
}
