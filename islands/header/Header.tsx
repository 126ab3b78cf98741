import { useEffect, useRef } from 'react';

export interface HeaderProps {
  title: string;
  homeHref: string;
  links: { title: string; url: string }[];
  /** The current path, so the matching link carries aria-current. */
  currentPath: string;
  labels: { home: string; navigation: string; menu: string };
}

/**
 * An island is rendered inside the whole document on the server but as its own root in the browser,
 * so `useId` would differ between the two: the one header of a page uses a fixed id instead.
 */
const MENU_ID = 'site-menu';

/**
 * Navigation header. On narrow screens the links fold into a `<details>` disclosure that opens and
 * closes by mouse, touch and keyboard with no script at all, so the markup is the same before and
 * after hydration (decision 0198). Hydrating only adds what a disclosure lacks: Escape closes and
 * returns focus to the toggle, a pointer outside the header closes.
 */
export default function Header({ title, homeHref, links, currentPath, labels }: HeaderProps) {
  const menu = useRef<HTMLDetailsElement>(null);

  // Listening from hydration on, not from the menu's `toggle` event: that event is queued, so a key
  // pressed right after opening (Enter, Tab, Escape) came before the listener did.
  useEffect(() => {
    const details = menu.current;
    if (!details) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || !details.open) return;
      details.open = false;
      details.querySelector('summary')?.focus();
    };
    const onPointer = (event: PointerEvent) => {
      if (details.open && !details.closest('header')?.contains(event.target as Node)) details.open = false;
    };
    document.addEventListener('keydown', onKey);
    document.addEventListener('pointerdown', onPointer);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('pointerdown', onPointer);
    };
  }, []);

  return (
    <header className="site-header">
      <a className="brand" href={homeHref} aria-label={labels.home}>
        {title}
      </a>
      <nav aria-label={labels.navigation}>
        {/* Left uncontrolled: the browser owns `open`. */}
        <details ref={menu} className="menu">
          <summary className="menu-toggle" aria-controls={MENU_ID}>
            <span aria-hidden="true" className="menu-icon" />
            <span className="visually-hidden">{labels.menu}</span>
          </summary>
        </details>
        <ul id={MENU_ID} className="nav-links">
          {links.map((link) => (
            <li key={link.url + link.title}>
              <a href={link.url} aria-current={link.url === currentPath ? 'page' : undefined}>
                {link.title}
              </a>
            </li>
          ))}
        </ul>
      </nav>
    </header>
  );
}
