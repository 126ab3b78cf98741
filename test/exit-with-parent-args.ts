import { fileURLToPath } from 'node:url';

/** Node arguments that make a started server stop once its starter is gone (test/exit-with-parent.ts). */
export const EXIT_WITH_PARENT = ['--import', fileURLToPath(new URL('./exit-with-parent.ts', import.meta.url))];
