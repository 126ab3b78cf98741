import t from 'tap';
import { ConfigError } from '../errors.ts';
import { readPreviewConfig } from './config.ts';

t.test('an empty environment previews against app.contentstack.com with no draft API', async (t) => {
  t.same(readPreviewConfig({}), {
    apiKey: '',
    environment: '',
    branch: '',
    editorOrigins: ['https://app.contentstack.com'],
    ssr: false,
    draftToken: undefined,
  });
});

t.test('every variable is read; EDITOR_ORIGINS is a comma list of origins', async (t) => {
  const config = readPreviewConfig({
    PREVIEW_API_KEY: 'blt123',
    PREVIEW_ENVIRONMENT: 'preview',
    PREVIEW_BRANCH: 'develop',
    EDITOR_ORIGINS: 'https://eu-app.contentstack.com, http://localhost:8080/',
    PREVIEW_SSR: 'true',
    DRAFT_API_TOKEN: 'a-long-enough-token',
  });
  t.same(config, {
    apiKey: 'blt123',
    environment: 'preview',
    branch: 'develop',
    editorOrigins: ['https://eu-app.contentstack.com', 'http://localhost:8080'],
    ssr: true,
    draftToken: 'a-long-enough-token',
  });
});

t.test('a bad value names the variable and refuses to start', async (t) => {
  for (const env of [
    { EDITOR_ORIGINS: '*' },
    { EDITOR_ORIGINS: 'https://app.contentstack.com/path' },
    { EDITOR_ORIGINS: 'javascript:alert(1)' },
    { EDITOR_ORIGINS: ' , ' },
    { DRAFT_API_TOKEN: 'short' },
    { PREVIEW_SSR: 'maybe' },
  ]) {
    t.throws(() => readPreviewConfig(env), ConfigError, JSON.stringify(env));
  }
  t.throws(() => readPreviewConfig({ EDITOR_ORIGINS: '*' }), { message: /EDITOR_ORIGINS/ });
});
