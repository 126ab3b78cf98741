import { type ComponentType, createElement } from 'react';
import { serializeInlineJson } from '../../common/inline-json.ts';
import { useRender } from './context.ts';

/**
 * When an island hydrates. `visible` starts within 200 px of the viewport; `{ visible: margin }` within
 * another margin (the live price: `0px`, on screen, decision 0205).
 */
export type HydrationStrategy = 'load' | 'idle' | 'visible' | 'interaction' | { media: string } | { visible: string };

interface IslandProps<P extends object> {
  /** The island's folder under islands/ (its chunk in the build manifest). */
  name: string;
  component: ComponentType<P>;
  props: P;
  strategy: HydrationStrategy;
}

/**
 * Server side of an island: the component's HTML inside a small custom element that
 * carries its module URL and its props as JSON. React escapes the attribute; the JSON goes through
 * the inline-JSON door too, so no prop can end an element or a script.
 */
export function Island<P extends object>({ name, component, props, strategy }: IslandProps<P>) {
  const { islandUrl } = useRender();
  return createElement(
    'vitrine-island',
    {
      'data-name': name,
      'data-url': islandUrl(name),
      'data-strategy': typeof strategy === 'string' ? strategy : 'media' in strategy ? 'media' : 'visible',
      ...(typeof strategy === 'object'
        ? 'media' in strategy
          ? { 'data-media': strategy.media }
          : { 'data-margin': strategy.visible }
        : {}),
      'data-props': serializeInlineJson(props),
    },
    createElement(component, props),
  );
}
