// The part of qrcode's API the web app calls (features/tickets/qr-matrix.ts), as @types/qrcode declares
// it, without that package's reference to Node's types, which would open them to the whole app (see
// tsconfig.json). The server's project checks its own qrcode calls against the real types.
declare module 'qrcode' {
  export type QRCodeErrorCorrectionLevel = 'low' | 'medium' | 'quartile' | 'high' | 'L' | 'M' | 'Q' | 'H';
  export interface QRCodeOptions {
    errorCorrectionLevel?: QRCodeErrorCorrectionLevel | undefined;
  }
  export interface BitMatrix {
    size: number;
    get(row: number, col: number): number;
  }
  export interface QRCode {
    modules: BitMatrix;
    version: number;
  }
  export function create(text: string, options?: QRCodeOptions): QRCode;
}
