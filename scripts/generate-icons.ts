/**
 * Renders public/icons/icon.svg to the PNG sizes browsers and home screens ask for, and wraps the
 * 32 px one in favicon.ico (an ICO file may hold a PNG as is). Run after changing the SVG; the
 * outputs are committed, so neither the build nor the server needs a browser.
 *
 *   npx tsx scripts/generate-icons.ts
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { chromium } from 'playwright-core';

const dir = 'public/icons';
const svg = readFileSync(`${dir}/icon.svg`, 'utf8');
const sizes = { 'apple-touch-icon.png': 180, 'icon-192.png': 192, 'icon-512.png': 512, 'favicon-32.png': 32 };

/** ICONDIR + one ICONDIRENTRY pointing at the PNG that follows them. */
function icoOf(png: Buffer, size: number): Buffer {
  const header = Buffer.alloc(22);
  header.writeUInt16LE(0, 0); // reserved
  header.writeUInt16LE(1, 2); // type: icon
  header.writeUInt16LE(1, 4); // one image
  header.writeUInt8(size % 256, 6); // width (0 means 256)
  header.writeUInt8(size % 256, 7);
  header.writeUInt16LE(1, 10); // colour planes
  header.writeUInt16LE(32, 12); // bits per pixel
  header.writeUInt32LE(png.length, 14); // size of the image
  header.writeUInt32LE(22, 18); // offset of the image
  return Buffer.concat([header, png]);
}

const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'],
});
try {
  for (const [name, size] of Object.entries(sizes)) {
    const page = await browser.newPage({ viewport: { width: size, height: size } });
    await page.setContent(
      `<style>html,body{margin:0}svg{display:block;width:${size}px;height:${size}px}</style>${svg}`,
    );
    const png = await page.screenshot({ omitBackground: true });
    await page.close();
    if (name === 'favicon-32.png') writeFileSync(`${dir}/favicon.ico`, icoOf(png, size));
    else writeFileSync(`${dir}/${name}`, png);
  }
} finally {
  await browser.close();
}
