import type { ComponentEntry } from '../../common/content.ts';
import { useRender } from '../render/context.ts';
import type { ComponentProps } from './types.ts';

interface FooterLinksEntry extends ComponentEntry {
  groups: { title: string; links: { title: string; url: string }[] }[];
}

const safeHref = (url: string) => {
  if (url.startsWith('/') && !url.startsWith('//') && !url.startsWith('/\\')) return url;
  return /^https?:\/\//i.test(url) ? url : undefined;
};

export function FooterLinks({ entry, path }: ComponentProps<FooterLinksEntry>) {
  const { cslp, t } = useRender();
  return (
    <nav className="footer-links" aria-label={t('footer.label')} {...cslp(path)}>
      {entry.groups.map((group, g) => (
        <div className="footer-group" key={group.title}>
          <h2 {...cslp(`${path}.groups.${g}.title`)}>{group.title}</h2>
          <ul>
            {group.links.map((link, i) => (
              <li key={link.title}>
                <a href={safeHref(link.url)} {...cslp(`${path}.groups.${g}.links.${i}.title`)}>
                  {link.title}
                </a>
              </li>
            ))}
          </ul>
        </div>
      ))}
    </nav>
  );
}
