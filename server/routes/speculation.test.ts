import t from 'tap';
import { speculationAllowed } from './speculation.ts';

/** The header rule, one row per request: Save-Data or a 2g-class ECT turns speculation off. */
const CASES: [string, Record<string, string | string[]>, boolean][] = [
  ['no hints', {}, true],
  ['Save-Data: on', { 'save-data': 'on' }, false],
  ['Save-Data: On (any case)', { 'save-data': 'On' }, false],
  ['Save-Data with a parameter', { 'save-data': 'on;foo=1' }, false],
  ['Save-Data: off', { 'save-data': 'off' }, true],
  ['Save-Data: online is not on', { 'save-data': 'online' }, true],
  ['ECT: slow-2g', { ect: 'slow-2g' }, false],
  ['ECT: 2g', { ect: '2g' }, false],
  ['ECT: 2G (any case)', { ect: '2G' }, false],
  ['ECT: 3g', { ect: '3g' }, true],
  ['ECT: 4g', { ect: '4g' }, true],
  ['ECT: nonsense', { ect: 'fast' }, true],
  ['ECT: 4g with Save-Data: on', { ect: '4g', 'save-data': 'on' }, false],
  ['repeated ECT header, first 2g', { ect: ['2g', '4g'] }, false],
];

for (const [name, headers, allowed] of CASES) {
  t.test(`${name}: speculation rules ${allowed ? 'sent' : 'withheld'}`, async (t) => {
    t.equal(speculationAllowed(headers), allowed);
  });
}
