import { ISLAND_GROUP, togetherInBrowser } from '../together.ts';

await togetherInBrowser(import.meta.url, ISLAND_GROUP);
