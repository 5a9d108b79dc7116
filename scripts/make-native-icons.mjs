// Resamples the web app's icons (apps/web/public/icons, from scripts/make-icons.mjs) into the launcher
// icons and splash screens of the Capacitor projects in apps/mobile, so all platforms show one mark.
// No image tool is installed here: 4×4 supersampled bilinear resampling with pngjs.
// Run after make-icons: node scripts/make-native-icons.mjs
import { readFileSync, writeFileSync } from 'node:fs';
import { PNG } from 'pngjs';

const ICONS = 'apps/web/public/icons';
const RES = 'apps/mobile/android/app/src/main/res';
const IOS = 'apps/mobile/ios/App/App/Assets.xcassets';

const load = (path) => PNG.sync.read(readFileSync(path));

/** Bilinear sample of `src` at (x, y) in source pixels, premultiplied by alpha. */
function sample(src, x, y) {
  const cx = Math.min(Math.max(x - 0.5, 0), src.width - 1);
  const cy = Math.min(Math.max(y - 0.5, 0), src.height - 1);
  const x0 = Math.floor(cx);
  const y0 = Math.floor(cy);
  const x1 = Math.min(x0 + 1, src.width - 1);
  const y1 = Math.min(y0 + 1, src.height - 1);
  const fx = cx - x0;
  const fy = cy - y0;
  const out = [0, 0, 0, 0];
  for (const [px, py, w] of [
    [x0, y0, (1 - fx) * (1 - fy)],
    [x1, y0, fx * (1 - fy)],
    [x0, y1, (1 - fx) * fy],
    [x1, y1, fx * fy],
  ]) {
    const at = (py * src.width + px) * 4;
    const a = src.data[at + 3] / 255;
    for (let c = 0; c < 3; c++) out[c] += src.data[at + c] * a * w;
    out[3] += a * w;
  }
  return out;
}

/**
 * A `width`×`height` image on `background` (null: transparent) with `src` drawn in a centred square of
 * `box` pixels; `circle` masks the result to a circle (Android round launcher icons).
 */
function compose(src, width, height, box, { background = null, circle = false } = {}) {
  const png = new PNG({ width, height });
  const left = (width - box) / 2;
  const top = (height - box) / 2;
  const n = width * height > 1_000_000 ? 2 : 4; // the 2732 px splashes: fewer samples, same look
  for (let py = 0; py < height; py++) {
    for (let px = 0; px < width; px++) {
      const acc = [0, 0, 0, 0];
      for (let sy = 0; sy < n; sy++) {
        for (let sx = 0; sx < n; sx++) {
          const x = px + (sx + 0.5) / n;
          const y = py + (sy + 0.5) / n;
          if (circle && (x - width / 2) ** 2 + (y - height / 2) ** 2 > (Math.min(width, height) / 2) ** 2)
            continue;
          let colour = background ? [...background, 1] : [0, 0, 0, 0];
          const u = (x - left) / box;
          const v = (y - top) / box;
          if (u >= 0 && u < 1 && v >= 0 && v < 1) {
            const s = sample(src, u * src.width, v * src.height);
            // "source over": the icon (premultiplied) over what is below it.
            const below = colour;
            const alpha = s[3] + below[3] * (1 - s[3]);
            colour = [0, 1, 2].map((c) => (alpha ? (s[c] + below[c] * below[3] * (1 - s[3])) / alpha : 0));
            colour.push(alpha);
          }
          for (let c = 0; c < 3; c++) acc[c] += colour[c] * colour[3];
          acc[3] += colour[3];
        }
      }
      const at = (py * width + px) * 4;
      for (let c = 0; c < 3; c++) png.data[at + c] = acc[3] ? Math.round(acc[c] / acc[3]) : 0;
      png.data[at + 3] = Math.round((acc[3] / (n * n)) * 255);
    }
  }
  return PNG.sync.write(png);
}

const icon = load(`${ICONS}/icon-512.png`);
const fullBleed = load(`${ICONS}/icon-maskable-512.png`);
const BLACK = [0, 0, 0]; // spec §9: black native background

const write = (path, bytes) => {
  writeFileSync(path, bytes);
  console.log(path);
};

// Android launcher icons: legacy square and round icons, and the adaptive icon's 108 dp foreground.
const densities = { mdpi: 1, hdpi: 1.5, xhdpi: 2, xxhdpi: 3, xxxhdpi: 4 };
for (const [density, scale] of Object.entries(densities)) {
  const size = 48 * scale;
  write(`${RES}/mipmap-${density}/ic_launcher.png`, compose(icon, size, size, size));
  write(
    `${RES}/mipmap-${density}/ic_launcher_round.png`,
    compose(fullBleed, size, size, size, { circle: true }),
  );
  const fg = 108 * scale;
  write(`${RES}/mipmap-${density}/ic_launcher_foreground.png`, compose(fullBleed, fg, fg, fg));
}

// Splash screens (Android drawables and the iOS splash set): the mark centred on black, same sizes as
// the files Capacitor generated.
const splashes = [
  `${RES}/drawable/splash.png`,
  ...['land', 'port'].flatMap((o) =>
    ['mdpi', 'hdpi', 'xhdpi', 'xxhdpi', 'xxxhdpi'].map((d) => `${RES}/drawable-${o}-${d}/splash.png`),
  ),
  `${IOS}/Splash.imageset/splash-2732x2732.png`,
  `${IOS}/Splash.imageset/splash-2732x2732-1.png`,
  `${IOS}/Splash.imageset/splash-2732x2732-2.png`,
];
for (const path of splashes) {
  const { width, height } = load(path);
  write(path, compose(icon, width, height, Math.round(Math.min(width, height) * 0.3), { background: BLACK }));
}

// iOS app icon: 1024×1024, opaque, full bleed (iOS rounds the corners itself).
write(
  `${IOS}/AppIcon.appiconset/AppIcon-512@2x.png`,
  compose(fullBleed, 1024, 1024, 1024, { background: BLACK }),
);
