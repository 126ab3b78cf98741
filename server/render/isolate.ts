import type { ReactElement } from 'react';
import { renderToString } from 'react-dom/server';
import type { PageModel } from '../../client/page/model.ts';
import type { ComponentEntry, TemplateEntry } from '../../common/content.ts';
import { ComponentSchemas, firstProblem } from '../content/schemas.ts';
import type { WarnContent } from '../content/tolerant.ts';

/**
 * One bad component costs one component. Before a page is assembled, each
 * component is checked against what it needs to render; after, each is rendered once on its own,
 * and one that throws is left out too. Both happen before the page's footnotes are numbered for
 * good, so the notes of a left-out component leave with it and numbering has no gap.
 */

const ZONES = ['header_components', 'body_components', 'footer_components'] as const;
type Zone = (typeof ZONES)[number];

/** The template without the components whose fields do not fit their schema; each is reported. */
export function withoutUnusable(template: TemplateEntry, where: string, warn: WarnContent): TemplateEntry {
  return withoutComponents(template, (component, zone, i) => {
    const schema = ComponentSchemas[component._content_type_uid];
    const problem = schema ? firstProblem(schema, component, `$.${zone}[${i}]`) : null;
    if (!problem) return false;
    warn({ where, uid: component.uid, path: problem.path, problem: `${problem.message}; component left out` });
    return true;
  });
}

export interface ComponentFailure {
  component: ComponentEntry;
  zone: keyof PageModel['zones'];
  error: unknown;
}

/** The components of an assembled page that throw when rendered on their own. */
export function throwingComponents(
  model: PageModel,
  element: (component: ComponentEntry, zone: keyof PageModel['zones']) => ReactElement,
): ComponentFailure[] {
  const failures: ComponentFailure[] = [];
  for (const zone of ['header', 'body', 'footer'] as const) {
    for (const component of model.zones[zone]) {
      try {
        renderToString(element(component, zone));
      } catch (error) {
        failures.push({ component, zone, error });
      }
    }
  }
  return failures;
}

/** The template without the components that failed (matched by type and uid: the legal block is a copy). */
export function withoutFailed(template: TemplateEntry, failures: readonly ComponentFailure[]): TemplateEntry {
  return withoutComponents(template, (component) =>
    failures.some(
      (f) => f.component._content_type_uid === component._content_type_uid && f.component.uid === component.uid,
    ),
  );
}

function withoutComponents(
  template: TemplateEntry,
  drop: (component: ComponentEntry, zone: Zone, index: number) => boolean,
): TemplateEntry {
  const zones = Object.fromEntries(
    ZONES.map((zone) => [zone, template[zone].filter((component, i) => !drop(component, zone, i))]),
  ) as Pick<TemplateEntry, Zone>;
  return { ...template, ...zones };
}
