/** The demo pages the bench loads: all on the UK storefront. */
export const BENCH_HOST = 'www.halden.co.uk';
export const PRODUCT_PATH = '/cs/kitchen/aquasense-60-dishwasher-4711';
