import { existsSync, readFileSync, statSync } from 'node:fs';
import { brotliCompressSync, gzipSync, constants as zlib } from 'node:zlib';

/** What built files weigh as sent: a file's `.gz`/`.br` twin when the build wrote one, else compressed here at the highest level. */
export function compressedBytes(files: Iterable<string>): { gzip: number; br: number } {
  let gzip = 0;
  let br = 0;
  for (const file of files) {
    gzip += compressedSize(file, 'gz');
    br += compressedSize(file, 'br');
  }
  return { gzip, br };
}

function compressedSize(file: string, encoding: 'gz' | 'br'): number {
  const twin = `${file}.${encoding}`;
  if (existsSync(twin)) return statSync(twin).size;
  const body = readFileSync(file);
  return encoding === 'gz'
    ? gzipSync(body, { level: 9 }).length
    : brotliCompressSync(body, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11 } }).length;
}
