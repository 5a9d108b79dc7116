import jsQR from 'jsqr';

// Reading a QR from the live video (spec §2 scanner; architecture: BarcodeDetector where the browser has
// it, else jsQR, bundled — no CDN). jsQR is part of the scanner's own chunk rather than a chunk of its
// own: a door that has opened the scanner once must not need the network again to read a code
// (decision 013), and the scanner chunk never loads for a parent who books.

/** The part of the Barcode Detection API used here (not yet in TypeScript's DOM types). */
type DetectedBarcode = { rawValue: string };
type BarcodeDetectorInstance = { detect(source: CanvasImageSource): Promise<DetectedBarcode[]> };
type BarcodeDetectorClass = {
  new (options: { formats: string[] }): BarcodeDetectorInstance;
  getSupportedFormats?: () => Promise<string[]>;
};

/** Reads one frame; null when no code is in it (or the frame is not ready yet). */
export type FrameDecoder = (video: HTMLVideoElement) => Promise<string | null>;

/** jsQR looks at frames no wider than this: enough for a ticket held up to the camera, and fast. */
const JSQR_MAX_WIDTH = 640;
const HAVE_CURRENT_DATA = 2;

const frameReady = (video: HTMLVideoElement) => video.readyState >= HAVE_CURRENT_DATA;

async function nativeDetector(): Promise<FrameDecoder | null> {
  const Detector = (globalThis as { BarcodeDetector?: BarcodeDetectorClass }).BarcodeDetector;
  if (!Detector) return null;
  try {
    const formats = (await Detector.getSupportedFormats?.()) ?? ['qr_code'];
    if (!formats.includes('qr_code')) return null;
    const detector = new Detector({ formats: ['qr_code'] });
    return async (video) => {
      if (!frameReady(video)) return null;
      const found = await detector.detect(video);
      return found[0]?.rawValue ?? null;
    };
  } catch {
    return null;
  }
}

function jsqrDecoder(): FrameDecoder {
  const canvas = document.createElement('canvas');
  const context = canvas.getContext('2d', { willReadFrequently: true });
  return async (video) => {
    if (!context || !frameReady(video) || video.videoWidth === 0) return null;
    const scale = Math.min(1, JSQR_MAX_WIDTH / video.videoWidth);
    const width = Math.round(video.videoWidth * scale);
    const height = Math.round(video.videoHeight * scale);
    if (canvas.width !== width) canvas.width = width;
    if (canvas.height !== height) canvas.height = height;
    context.drawImage(video, 0, 0, width, height);
    const image = context.getImageData(0, 0, width, height);
    return jsQR(image.data, width, height, { inversionAttempts: 'dontInvert' })?.data ?? null;
  };
}

/** The browser's own detector when it reads QR codes, else jsQR. */
export async function createFrameDecoder(): Promise<FrameDecoder> {
  return (await nativeDetector()) ?? jsqrDecoder();
}
