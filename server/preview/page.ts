import type { PreviewScript } from '../../client/page/model.ts';
import { PAGE_CONFIG_ID, type PageConfig } from '../../common/preview-page-config.ts';
import type { PreviewConfig } from './config.ts';

/**
 * What a preview response adds to the page (issue 9, contract section 6): the layer's script and
 * the configuration it reads, and a CSP that lets only the editor frame the page.
 */

/** The script tag and its JSON configuration; the first editor origin hosts the edit links. */
export function previewScript(config: PreviewConfig, src: string): PreviewScript {
  const editor = new URL(config.editorOrigins[0] as string);
  const protocol = editor.protocol === 'http:' ? 'http' : 'https';
  const page: PageConfig = {
    init: {
      ssr: config.ssr,
      mode: 'preview',
      stackDetails: { apiKey: config.apiKey, environment: config.environment, branch: config.branch },
      clientUrlParams: {
        protocol,
        host: editor.hostname,
        port: Number(editor.port) || (protocol === 'http' ? 80 : 443),
      },
      editorOrigins: config.editorOrigins,
    },
  };
  return { src, configId: PAGE_CONFIG_ID, config: page };
}

/** The response's CSP with `frame-ancestors` set to the editor origins (pages elsewhere allow only themselves). */
export function previewCsp(csp: string, editorOrigins: readonly string[]): string {
  const kept = csp.split(';').filter((directive) => directive.trim() && !/^\s*frame-ancestors\b/i.test(directive));
  return [...kept, `frame-ancestors ${editorOrigins.join(' ')}`].join(';');
}
