import { start } from './runtime.ts';

// The entry the page loads (only on pages that have islands).
start();
