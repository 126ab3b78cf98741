/** The brand colours of the stylesheet (`--bronze`, `--paper`): browser chrome and splash screens. */
export const THEME_COLOR = '#82532f';
export const BACKGROUND_COLOR = '#f7f4ef';

/** Icon files under /icons/ (public/icons, made by scripts/generate-icons.ts). */
export const ICONS = {
  svg: '/icons/icon.svg',
  appleTouch: '/icons/apple-touch-icon.png',
  favicon: '/favicon.ico',
  png: [
    { src: '/icons/icon-192.png', sizes: '192x192' },
    { src: '/icons/icon-512.png', sizes: '512x512' },
  ],
} as const;

export const MANIFEST_PATH = '/manifest.webmanifest';
