import { useEffect, useRef, useState } from 'react';

export interface HeaderProps {
  title: string;
  homeHref: string;
  links: { title: string; url: string }[];
  /** The current path, so the matching link carries aria-current. */
  currentPath: string;
  labels: { home: string; navigation: string; openMenu: string; closeMenu: string };
}

/**
 * An island is rendered inside the whole document on the server but as its own root in the browser,
 * so `useId` would differ between the two: the one header of a page uses a fixed id instead.
 */
const MENU_ID = 'site-menu';

/**
 * Navigation header. Before hydration it is a bar of plain links; once hydrated, narrow
 * screens get a menu toggle that opens and closes by mouse, touch and keyboard (Escape closes and
 * returns focus to the toggle).
 */
export default function Header({ title, homeHref, links, currentPath, labels }: HeaderProps) {
  const [hydrated, setHydrated] = useState(false);
  const [open, setOpen] = useState(false);
  const toggle = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLUListElement>(null);

  useEffect(() => setHydrated(true), []);

  useEffect(() => {
    if (!open) return;
    menu.current?.querySelector('a')?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        setOpen(false);
        toggle.current?.focus();
      }
    };
    const onPointer = (event: PointerEvent) => {
      const root = toggle.current?.closest('header');
      if (root && !root.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('keydown', onKey);
    document.addEventListener('pointerdown', onPointer);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('pointerdown', onPointer);
    };
  }, [open]);

  return (
    <header className="site-header" data-hydrated={hydrated ? 'true' : undefined}>
      <a className="brand" href={homeHref} aria-label={labels.home}>
        {title}
      </a>
      <nav aria-label={labels.navigation}>
        <button
          ref={toggle}
          type="button"
          className="menu-toggle"
          aria-expanded={open}
          aria-controls={MENU_ID}
          hidden={!hydrated}
          onClick={() => setOpen((o) => !o)}
        >
          <span aria-hidden="true" className="menu-icon" />
          <span className="visually-hidden">{open ? labels.closeMenu : labels.openMenu}</span>
        </button>
        <ul id={MENU_ID} ref={menu} className="nav-links" data-open={open ? 'true' : 'false'}>
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
