import type { PreviewScript } from '../../client/page/model.ts';
import { PAGE_CONFIG_ID, type PageConfig } from '../../common/preview-page-config.ts';
import type { PreviewConfig } from './config.ts';

/**
 * What a preview response adds to the page: the layer's script and
 * the configuration it reads, and a CSP that lets only the editor frame the page.
 */

/**
 * The script tag and its JSON configuration; the first editor origin hosts the edit links. The
 * page's own storefront is the only one it names: the workbench's origins of other storefronts
 * (every storefront host, over http) are none of this page's business.
 */
export function previewScript(
  config: PreviewConfig,
  src: string,
  page: { hosts: readonly string[]; storefrontHosts: ReadonlySet<string> },
): PreviewScript {
  const editor = new URL(config.editorOrigins[0] as string);
  const protocol = editor.protocol === 'http:' ? 'http' : 'https';
  const pageConfig: PageConfig = {
    init: {
      ssr: config.ssr,
      mode: 'preview',
      stackDetails: { apiKey: config.apiKey, environment: config.environment, branch: config.branch },
      clientUrlParams: {
        protocol,
        host: editor.hostname,
        port: Number(editor.port) || (protocol === 'http' ? 80 : 443),
      },
      editorOrigins: config.editorOrigins.filter((origin) => {
        const host = new URL(origin).hostname.toLowerCase();
        return !page.storefrontHosts.has(host) || page.hosts.includes(host);
      }),
    },
  };
  return { src, configId: PAGE_CONFIG_ID, config: pageConfig };
}

/** The response's CSP with `frame-ancestors` set to the editor origins (pages elsewhere allow only themselves). */
export function previewCsp(csp: string, editorOrigins: readonly string[]): string {
  const kept = csp.split(';').filter((directive) => directive.trim() && !/^\s*frame-ancestors\b/i.test(directive));
  return [...kept, `frame-ancestors ${editorOrigins.join(' ')}`].join(';');
}
