import ArrowDownwardIcon from '@mui/icons-material/ArrowDownward';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { LIST_TEXT } from '../lib/ui-text';

/** Spec §9: pull-to-refresh threshold 64 px (192 on the home view). */
export const PULL_THRESHOLD = 64;

/** How far the indicator follows the finger: the pull, capped at one and a half thresholds. */
export function pullDistance(startY: number, currentY: number, threshold: number): number {
  return Math.min(Math.max(0, currentY - startY), threshold * 1.5);
}

export function pullReleases(distance: number, threshold: number): boolean {
  return distance >= threshold;
}

type Props = {
  onRefresh: () => unknown;
  threshold?: number;
  children: ReactNode;
};

/**
 * Pull down from the top of the page to refresh (touch screens). The browser's own pull-to-reload is
 * switched off while this is on screen, so the pull refreshes the list rather than reloading the app.
 */
export function PullToRefresh({ onRefresh, threshold = PULL_THRESHOLD, children }: Props) {
  const startY = useRef<number | null>(null);
  const [distance, setDistance] = useState(0);
  const [refreshing, setRefreshing] = useState(false);

  useEffect(() => {
    const root = document.documentElement;
    const previous = root.style.overscrollBehaviorY;
    root.style.overscrollBehaviorY = 'contain';
    return () => {
      root.style.overscrollBehaviorY = previous;
    };
  }, []);

  const release = async () => {
    const pulled = distance;
    startY.current = null;
    setDistance(0);
    if (!pullReleases(pulled, threshold) || refreshing) return;
    setRefreshing(true);
    try {
      await onRefresh();
    } finally {
      setRefreshing(false);
    }
  };

  const height = refreshing ? 48 : distance;
  const ready = pullReleases(distance, threshold);

  return (
    <Box
      onTouchStart={(event) => {
        startY.current = window.scrollY <= 0 ? (event.touches[0]?.clientY ?? null) : null;
      }}
      onTouchMove={(event) => {
        const touch = event.touches[0];
        if (startY.current === null || !touch) return;
        setDistance(pullDistance(startY.current, touch.clientY, threshold));
      }}
      onTouchEnd={() => void release()}
      onTouchCancel={() => {
        startY.current = null;
        setDistance(0);
      }}
    >
      <Box
        aria-hidden={!refreshing}
        sx={{
          height,
          overflow: 'hidden',
          display: 'flex',
          alignItems: 'center',
          justifyContent: 'center',
          transition: distance === 0 ? 'height 150ms ease-out' : 'none',
        }}
      >
        {refreshing ? (
          <CircularProgress size={24} aria-label={LIST_TEXT.refreshing} />
        ) : distance > 0 ? (
          <ArrowDownwardIcon
            fontSize="small"
            sx={{ transform: ready ? 'rotate(180deg)' : 'none', transition: 'transform 150ms' }}
          />
        ) : null}
      </Box>
      {children}
    </Box>
  );
}
