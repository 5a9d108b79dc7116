// Draws the Parley mark of apps/web/public/favicon.svg (a light speech bubble with two green dots on the
// dark theme background of spec §9) into the PNG icons the manifest and iOS ask for. No image tool is
// installed here, so the shapes are rasterised by hand with 4×4 supersampling for smooth edges.
// Run: node scripts/make-icons.mjs
import { mkdirSync, writeFileSync } from 'node:fs';
import { PNG } from 'pngjs';

const OUT = 'apps/web/public/icons';
const BACKGROUND = [0x12, 0x12, 0x12]; // dark background.default
const BUBBLE = [0xef, 0xef, 0xef]; // dark primary
const DOTS = [0x78, 0xc2, 0x17]; // success

// The favicon's 64-unit design space.
const insideRoundedRect = (x, y, left, top, right, bottom, r) => {
  if (x < left || x > right || y < top || y > bottom) return false;
  const cx = Math.min(Math.max(x, left + r), right - r);
  const cy = Math.min(Math.max(y, top + r), bottom - r);
  return (x - cx) ** 2 + (y - cy) ** 2 <= r * r;
};

// M14 18h26a10 10 0 0 1 10 10v6a10 10 0 0 1-10 10H28l-10 8v-8h-4z: square left corners, round right ones,
// and a tail from (28,44) down to (18,52).
const insideBubble = (x, y) => {
  if (x >= 14 && x <= 40 && y >= 18 && y <= 44) return true;
  if (insideRoundedRect(x, y, 30, 18, 50, 44, 10)) return true;
  if (y >= 44 && y <= 52 && x >= 18) return x <= 28 - ((y - 44) * 10) / 8;
  return false;
};

const insideDot = (x, y) => (x - 26) ** 2 + (y - 31) ** 2 <= 9 || (x - 36) ** 2 + (y - 31) ** 2 <= 9;

/**
 * `scale` shrinks the mark around the centre (a maskable icon keeps it inside the 80 % safe circle);
 * `rounded` gives the tile the favicon's rounded corners (full-bleed tiles for maskable and Apple icons,
 * which the platform crops itself).
 */
function draw(size, { scale = 1, rounded = true } = {}) {
  const png = new PNG({ width: size, height: size });
  const samples = 4;
  for (let py = 0; py < size; py++) {
    for (let px = 0; px < size; px++) {
      const sum = [0, 0, 0];
      let covered = 0;
      for (let sy = 0; sy < samples; sy++) {
        for (let sx = 0; sx < samples; sx++) {
          const x = ((px + (sx + 0.5) / samples) / size) * 64;
          const y = ((py + (sy + 0.5) / samples) / size) * 64;
          if (rounded && !insideRoundedRect(x, y, 0, 0, 64, 64, 14)) continue;
          covered++;
          const mx = 32 + (x - 32) / scale;
          const my = 32 + (y - 32) / scale;
          const colour = insideDot(mx, my) ? DOTS : insideBubble(mx, my) ? BUBBLE : BACKGROUND;
          for (let c = 0; c < 3; c++) sum[c] += colour[c];
        }
      }
      const at = (py * size + px) * 4;
      for (let c = 0; c < 3; c++) png.data[at + c] = covered ? Math.round(sum[c] / covered) : 0;
      png.data[at + 3] = Math.round((covered / (samples * samples)) * 255);
    }
  }
  return PNG.sync.write(png);
}

mkdirSync(OUT, { recursive: true });
const icons = {
  'icon-192.png': draw(192),
  'icon-512.png': draw(512),
  'icon-maskable-512.png': draw(512, { scale: 0.75, rounded: false }),
  'apple-touch-icon-180.png': draw(180, { rounded: false }),
};
for (const [name, bytes] of Object.entries(icons)) {
  writeFileSync(`${OUT}/${name}`, bytes);
  console.log(`${OUT}/${name}`);
}
