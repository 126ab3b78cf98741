import { type Static, Type } from '@sinclair/typebox';
import envSchema from 'env-schema';
import { ConfigError } from '../errors.ts';

/**
 * Live-preview settings from the environment: the stack the editor edits, the editor
 * origins that may frame preview pages and talk to the layer, and the draft API token.
 */
const PreviewEnvSchema = Type.Object({
  PREVIEW_API_KEY: Type.String({ default: '' }),
  PREVIEW_ENVIRONMENT: Type.String({ default: '' }),
  // Empty: edit links carry no branch.
  PREVIEW_BRANCH: Type.String({ default: '' }),
  // Comma-separated origins; the first also hosts the edit links.
  EDITOR_ORIGINS: Type.String({ minLength: 1, default: 'https://app.contentstack.com' }),
  // `true`: the editor reloads the frame on every change instead of the page morphing itself.
  PREVIEW_SSR: Type.Boolean({ default: false }),
  // Bearer token of the draft API; without it the API refuses every request.
  DRAFT_API_TOKEN: Type.Optional(Type.String({ minLength: 16 })),
});

export interface PreviewConfig {
  apiKey: string;
  environment: string;
  branch: string;
  /** At least one; each an `http(s)://host[:port]` origin. */
  editorOrigins: string[];
  ssr: boolean;
  draftToken: string | undefined;
}

function parseOrigins(list: string): string[] {
  return list
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry) => {
      let url: URL | undefined;
      try {
        url = new URL(entry);
      } catch {}
      if (!url || !/^https?:$/.test(url.protocol) || url.origin !== entry.replace(/\/$/, ''))
        throw new ConfigError(
          `Invalid environment: EDITOR_ORIGINS entry "${entry}" is not an origin like https://app.contentstack.com`,
        );
      return url.origin;
    });
}

export function readPreviewConfig(source: NodeJS.ProcessEnv = process.env): PreviewConfig {
  let env: Static<typeof PreviewEnvSchema>;
  try {
    env = envSchema<Static<typeof PreviewEnvSchema>>({
      schema: PreviewEnvSchema,
      data: source,
      env: false,
      dotenv: false,
    });
  } catch (error) {
    throw new ConfigError(`Invalid environment: ${(error as Error).message}`);
  }
  const editorOrigins = parseOrigins(env.EDITOR_ORIGINS);
  if (editorOrigins.length === 0) throw new ConfigError('Invalid environment: EDITOR_ORIGINS names no origin');
  return {
    apiKey: env.PREVIEW_API_KEY,
    environment: env.PREVIEW_ENVIRONMENT,
    branch: env.PREVIEW_BRANCH,
    editorOrigins,
    ssr: env.PREVIEW_SSR,
    draftToken: env.DRAFT_API_TOKEN,
  };
}
