import { writeFileSync } from 'node:fs';
import { create } from 'qrcode';

// A camera for Chromium made from QR codes: a Y4M file (raw 4:2:0 frames) that Chromium's fake capture
// device plays in a loop, from its first frame each time a page opens the camera. The scanner reads it
// exactly as it reads a phone's rear camera (getUserMedia, then BarcodeDetector or jsQR).

export const VIDEO = { width: 640, height: 480, fps: 5 } as const;

/** One frame: a QR code of this text (black modules on white, with the quiet zone), or an empty white one. */
export type Frame = string | null;

/** `seconds` of one picture. */
export const hold = (frame: Frame, seconds: number): Frame[] =>
  Array.from({ length: Math.round(seconds * VIDEO.fps) }, () => frame);

/** The luma plane of a frame: the QR (error correction Q, as tickets are) centred, 80% of the height. */
function luma(text: Frame): Buffer {
  const { width, height } = VIDEO;
  const plane = Buffer.alloc(width * height, 235); // white (video range)
  if (text === null) return plane;
  const { modules } = create(text, { errorCorrectionLevel: 'Q' });
  const quiet = 4;
  const span = modules.size + quiet * 2;
  const scale = Math.floor((height * 0.8) / span);
  const left = Math.floor((width - span * scale) / 2) + quiet * scale;
  const top = Math.floor((height - span * scale) / 2) + quiet * scale;
  for (let row = 0; row < modules.size; row++) {
    for (let col = 0; col < modules.size; col++) {
      if (!modules.get(row, col)) continue;
      for (let y = 0; y < scale; y++) {
        const start = (top + row * scale + y) * width + left + col * scale;
        plane.fill(16, start, start + scale); // black (video range)
      }
    }
  }
  return plane;
}

/** Writes the frames as a Y4M video (640×480, 5 frames a second, 4:2:0, grey chroma). */
export function writeVideo(path: string, frames: Frame[]): string {
  const { width, height, fps } = VIDEO;
  const chroma = Buffer.alloc((width / 2) * (height / 2) * 2, 128);
  const pictures = new Map<Frame, Buffer>();
  const parts: Buffer[] = [Buffer.from(`YUV4MPEG2 W${width} H${height} F${fps}:1 Ip A1:1 C420jpeg\n`)];
  for (const frame of frames) {
    let picture = pictures.get(frame);
    if (!picture) {
      picture = luma(frame);
      pictures.set(frame, picture);
    }
    parts.push(Buffer.from('FRAME\n'), picture, chroma);
  }
  writeFileSync(path, Buffer.concat(parts));
  return path;
}

/**
 * Chromium's switches for a camera playing this file. Without `allow`, the page must ask and a headless
 * browser refuses (NotAllowedError), as a person tapping "Block" would.
 */
export const cameraArgs = (file: string, { allow = true } = {}): string[] => [
  '--use-fake-device-for-media-stream',
  ...(allow ? ['--use-fake-ui-for-media-stream'] : []),
  `--use-file-for-fake-video-capture=${file}`,
];
