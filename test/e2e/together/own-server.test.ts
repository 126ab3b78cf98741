import { togetherInBrowser } from '../together.ts';

await togetherInBrowser(import.meta.url);
