/**
 * File names of the lazy chunks beside the standalone script, written by the SDK build
 * (vite.sdk.config.ts) once the chunks exist.
 */
declare module 'virtual:vitrine-sdk-chunks' {
  const chunks: { sanitize: string; morph: string; builder: string; collab: string };
  export default chunks;
}
