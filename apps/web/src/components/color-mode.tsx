import { STORAGE_KEYS } from '@parley/domain/constants';
import { createContext, type ReactNode, useCallback, useContext, useMemo, useState } from 'react';
import { readString, writeString } from '../lib/storage';

// Dark by default (spec §1); the light/dark choice is remembered in local storage.

export type ColorMode = 'light' | 'dark';

type ColorModeValue = { mode: ColorMode; toggle: () => void; setMode: (mode: ColorMode) => void };

const ColorModeContext = createContext<ColorModeValue>({ mode: 'dark', toggle: () => {}, setMode: () => {} });

export function readStoredColorMode(): ColorMode {
  return readString(STORAGE_KEYS.theme) === 'light' ? 'light' : 'dark';
}

export function ColorModeProvider({ children }: { children: (mode: ColorMode) => ReactNode }) {
  const [mode, setModeState] = useState<ColorMode>(readStoredColorMode);
  const setMode = useCallback((next: ColorMode) => {
    writeString(STORAGE_KEYS.theme, next);
    setModeState(next);
  }, []);
  const toggle = useCallback(() => {
    setModeState((current) => {
      const next = current === 'dark' ? 'light' : 'dark';
      writeString(STORAGE_KEYS.theme, next);
      return next;
    });
  }, []);
  const value = useMemo(() => ({ mode, toggle, setMode }), [mode, toggle, setMode]);
  return <ColorModeContext.Provider value={value}>{children(mode)}</ColorModeContext.Provider>;
}

export function useColorMode(): ColorModeValue {
  return useContext(ColorModeContext);
}
