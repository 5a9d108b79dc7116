import jsQR from 'jsqr';
import { create } from 'qrcode';
import { describe, expect, it } from 'vitest';
import { QR_MARGIN, QR_OPTIONS, qrShape } from './qr-matrix';

/** Paints the path's runs into black-on-white RGBA pixels, `scale` pixels a module. */
function rasterise(shape: { size: number; path: string }, scale: number) {
  const width = shape.size * scale;
  const pixels = new Uint8ClampedArray(width * width * 4).fill(255);
  for (const [, x, y, run] of shape.path.matchAll(/M(\d+) (\d+)h(\d+)v1h-\d+z/g)) {
    for (let dy = 0; dy < scale; dy++) {
      for (let dx = 0; dx < Number(run) * scale; dx++) {
        const offset = ((Number(y) * scale + dy) * width + Number(x) * scale + dx) * 4;
        pixels[offset] = 0;
        pixels[offset + 1] = 0;
        pixels[offset + 2] = 0;
      }
    }
  }
  return { pixels, width };
}

describe('the ticket QR (spec §2/§9)', () => {
  const text = 'https://parley.example/t/AbCdEfGhIjKlMnOpQrStUv';

  it('reads back as the ticket URL', () => {
    const shape = qrShape(text);
    const { pixels, width } = rasterise(shape, 4);
    expect(jsQR(pixels, width, width)?.data).toBe(text);
  });

  it('uses error correction Q and keeps a quiet zone', () => {
    expect(QR_OPTIONS.errorCorrectionLevel).toBe('Q');
    const modules = create(text, QR_OPTIONS).modules.size;
    const shape = qrShape(text);
    expect(shape.size).toBe(modules + 2 * QR_MARGIN);
    const xs = [...shape.path.matchAll(/M(\d+) /g)].map((match) => Number(match[1]));
    expect(Math.min(...xs)).toBe(QR_MARGIN);
  });
});
