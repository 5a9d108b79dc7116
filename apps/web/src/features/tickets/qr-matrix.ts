import { QR_ERROR_CORRECTION } from '@parley/domain/tickets';
import { create } from 'qrcode';

// A ticket's QR as an SVG path (spec §2/§9: black on white, square dots, error correction Q). Drawn by
// React from the module matrix rather than a canvas or an <img> of a data URL: nothing for the CSP to
// block, crisp in print, and testable without a canvas.

/** The quiet zone the QR standard asks for, in modules: scanners need the white border on a dark page. */
export const QR_MARGIN = 4;

/** Spec §9: error correction Q (a quarter of the code may be smudged or folded and still read). */
export const QR_OPTIONS = { errorCorrectionLevel: QR_ERROR_CORRECTION } as const;

export type QrShape = { size: number; path: string };

/** Dark modules as one path of horizontal runs, offset by the margin; `size` includes both margins. */
export function qrShape(text: string, margin = QR_MARGIN): QrShape {
  const { modules } = create(text, QR_OPTIONS);
  const count = modules.size;
  const parts: string[] = [];
  for (let row = 0; row < count; row++) {
    let col = 0;
    while (col < count) {
      if (!modules.get(row, col)) {
        col++;
        continue;
      }
      const start = col;
      while (col < count && modules.get(row, col)) col++;
      const run = col - start;
      parts.push(`M${start + margin} ${row + margin}h${run}v1h-${run}z`);
    }
  }
  return { size: count + margin * 2, path: parts.join('') };
}
