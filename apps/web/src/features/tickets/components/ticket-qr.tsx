import { useMemo } from 'react';
import { qrShape } from '../qr-matrix';

type Props = { text: string; size: number; label: string };

/** A ticket's QR code: black square dots on white (spec §2), sized in CSS pixels. */
export function TicketQr({ text, size, label }: Props) {
  const shape = useMemo(() => qrShape(text), [text]);
  return (
    <svg
      role="img"
      viewBox={`0 0 ${shape.size} ${shape.size}`}
      width={size}
      height={size}
      shapeRendering="crispEdges"
      data-qr-text={text}
    >
      <title>{label}</title>
      <rect width={shape.size} height={shape.size} fill="#ffffff" />
      <path d={shape.path} fill="#000000" />
    </svg>
  );
}
