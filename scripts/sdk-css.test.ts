import t from 'tap';
import { minifiedCss } from '../vite.sdk.config.ts';

/** The SDK build's `css` literals: minified as stylesheets; anything it cannot read whole is left as written. */

const transform = (code: string, id = '/work/sdk/builder/styles.ts') => {
  const plugin = minifiedCss() as { transform(code: string, id: string): { code: string } | undefined };
  return plugin.transform(code, id)?.code ?? code;
};

t.test('a css literal in SDK code is minified', async (t) => {
  const source = 'export const A = css`\n.a {  color: #ffffff;\n  margin: 0px; }\n`;';
  t.equal(transform(source), 'export const A = `.a{color:#fff;margin:0}`;');
});

t.test(
  'literals with interpolations or escapes, the word in a comment, and other folders are left alone',
  async (t) => {
    const cases = [
      // biome-ignore lint/suspicious/noTemplateCurlyInString: source text with an interpolation, not a template here
      'const B = css`.b { color: ${colour}; }`;',
      'const C = css`q::before { content: "\\201C"; }`;',
      '/** styled by `css`: the reset */ const D = 1;',
    ];
    for (const source of cases) t.equal(transform(source), source);
    t.equal(transform('const E = css`.e { color: red; }`;', '/work/server/x.ts'), 'const E = css`.e { color: red; }`;');
  },
);
