import Box from '@mui/material/Box';
import Stack from '@mui/material/Stack';
import { useTheme } from '@mui/material/styles';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import type { LoadTestPoint } from '@parley/domain/load-test';
import { useEffect, useId, useRef, useState } from 'react';
import { chartScale, msLabel, type Series, seriesPath } from '../load-test-logic';

// The rush second by second, drawn by hand (no chart library): bookings per second as bars on the left
// scale, p50 and p99 latency as lines on the right one. The same figures follow as a table (the chart's
// text alternative), folded away for sighted readers who have the picture.

const HEIGHT = 220;
const PAD = { left: 40, right: 56, top: 12, bottom: 28 };

const ms = (value: number | null) => (value === null ? '—' : `${Math.round(value)} ms`);

export function RushChart({ series, seconds }: { series: LoadTestPoint[]; seconds: number }) {
  const theme = useTheme();
  // Drawn at the width it is shown at, so its labels keep their size on a phone.
  const box = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(640);
  useEffect(() => {
    const element = box.current;
    if (!element || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(([entry]) => {
      if (entry) setWidth(Math.max(280, Math.round(entry.contentRect.width)));
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  const titleId = useId();
  const descId = useId();
  const scale = chartScale(series, seconds);
  const plotW = width - PAD.left - PAD.right;
  const plotH = HEIGHT - PAD.top - PAD.bottom;
  const x = (second: number) => PAD.left + (second / scale.seconds) * plotW;
  const barW = Math.max(1, plotW / scale.seconds - 2);
  const yCount = (n: number) => PAD.top + plotH - (n / scale.bookings) * plotH;
  const yMs = (value: number) => PAD.top + plotH - (value / scale.ms) * plotH;
  const colors = {
    bars: theme.palette.primary.main,
    p50: theme.palette.success.main,
    p99: theme.palette.warning.main,
    grid: theme.palette.divider,
    text: theme.palette.text.secondary,
  };
  const line = (key: Series) =>
    seriesPath(
      series,
      key,
      (point) => x(point.second + 0.5),
      (value) => yMs(value),
    );
  const busiest = series.reduce((most, point) => Math.max(most, point.bookings), 0);
  const last = series.at(-1);
  const description =
    series.length === 0
      ? 'No bookings yet.'
      : `${series.length} seconds; at most ${busiest} bookings in one second; in the last second p50 ${ms(last?.p50Ms ?? null)}, p99 ${ms(last?.p99Ms ?? null)}. The table below lists every second.`;
  return (
    <Box ref={box}>
      <Stack direction="row" spacing={2} sx={{ mb: 1, flexWrap: 'wrap' }} aria-hidden="true">
        <Legend color={colors.bars} label="Bookings per second (left)" kind="bar" />
        <Legend color={colors.p50} label="p50 latency (right)" kind="line" />
        <Legend color={colors.p99} label="p99 latency (right)" kind="dash" />
      </Stack>
      <Box
        component="svg"
        viewBox={`0 0 ${width} ${HEIGHT}`}
        role="img"
        aria-labelledby={titleId}
        aria-describedby={descId}
        data-testid="rush-chart"
        sx={{ width: '100%', height: 'auto', display: 'block' }}
      >
        <title id={titleId}>Bookings per second and latency during the rehearsal</title>
        <desc id={descId}>{description}</desc>
        {scale.ticks.map((tick) => (
          <g key={tick}>
            <line
              x1={PAD.left}
              x2={width - PAD.right}
              y1={yCount(tick * scale.bookings)}
              y2={yCount(tick * scale.bookings)}
              stroke={colors.grid}
            />
            <text
              x={PAD.left - 6}
              y={yCount(tick * scale.bookings) + 4}
              textAnchor="end"
              fontSize="11"
              fill={colors.text}
            >
              {Math.round(tick * scale.bookings)}
            </text>
            <text x={width - PAD.right + 6} y={yMs(tick * scale.ms) + 4} fontSize="11" fill={colors.text}>
              {msLabel(tick * scale.ms)}
            </text>
          </g>
        ))}
        {series.map((point) => (
          <rect
            key={point.second}
            data-testid="rush-bar"
            x={x(point.second) + 1}
            y={yCount(point.bookings)}
            width={barW}
            height={Math.max(0, PAD.top + plotH - yCount(point.bookings))}
            fill={colors.bars}
            opacity={0.75}
          />
        ))}
        <path d={line('p50Ms')} fill="none" stroke={colors.p50} strokeWidth={2} />
        <path d={line('p99Ms')} fill="none" stroke={colors.p99} strokeWidth={2} strokeDasharray="5 3" />
        {scale.secondTicks.map((second) => (
          <text
            key={second}
            x={x(second)}
            y={HEIGHT - 8}
            textAnchor="middle"
            fontSize="11"
            fill={colors.text}
          >
            {second} s
          </text>
        ))}
      </Box>
      <Box component="details" sx={{ mt: 1 }}>
        <Typography component="summary" variant="body2" sx={{ cursor: 'pointer' }}>
          The figures as a table
        </Typography>
        <Table size="small" aria-label="Bookings and latency second by second">
          <TableHead>
            <TableRow>
              <TableCell>Second</TableCell>
              <TableCell align="right">Bookings</TableCell>
              <TableCell align="right">Attempts</TableCell>
              <TableCell align="right">Conflicts</TableCell>
              <TableCell align="right">p50</TableCell>
              <TableCell align="right">p99</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {series.map((point) => (
              <TableRow key={point.second}>
                <TableCell>{point.second + 1}</TableCell>
                <TableCell align="right">{point.bookings}</TableCell>
                <TableCell align="right">{point.attempts}</TableCell>
                <TableCell align="right">{point.conflicts}</TableCell>
                <TableCell align="right">{ms(point.p50Ms)}</TableCell>
                <TableCell align="right">{ms(point.p99Ms)}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </Box>
    </Box>
  );
}

function Legend({ color, label, kind }: { color: string; label: string; kind: 'bar' | 'line' | 'dash' }) {
  return (
    <Stack direction="row" spacing={0.75} sx={{ alignItems: 'center' }}>
      <svg width="18" height="10" aria-hidden="true">
        {kind === 'bar' ? (
          <rect width="18" height="10" fill={color} opacity={0.75} />
        ) : (
          <line
            x1="0"
            x2="18"
            y1="5"
            y2="5"
            stroke={color}
            strokeWidth="2"
            strokeDasharray={kind === 'dash' ? '5 3' : undefined}
          />
        )}
      </svg>
      <Typography variant="caption">{label}</Typography>
    </Stack>
  );
}
