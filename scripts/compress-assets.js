// Writes brotli (quality 11) and gzip twins of every built script and stylesheet, so the static
// server sends them precompressed instead of compressing on every request.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const dir = process.argv[2] ?? 'dist/client';
for (const name of readdirSync(dir)) {
  if (!/\.(js|css|svg|json)$/.test(name)) continue;
  const body = readFileSync(join(dir, name));
  writeFileSync(
    join(dir, `${name}.br`),
    brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
  );
  writeFileSync(join(dir, `${name}.gz`), gzipSync(body, { level: 9 }));
}
