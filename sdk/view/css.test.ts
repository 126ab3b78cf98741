import t from 'tap';
import { css } from './css.ts';

t.test('a css literal is its text at run time, interpolations included', async (t) => {
  const colour = '#6c5ce7';
  t.equal(css`.a { color: ${colour}; }`, '.a { color: #6c5ce7; }');
});

t.test('raw: a CSS escape stays a CSS escape', async (t) => {
  t.equal(css`q::before { content: "\201C"; }`, 'q::before { content: "\\201C"; }');
});
