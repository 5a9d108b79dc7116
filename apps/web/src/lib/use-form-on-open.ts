import { useLayoutEffect, useRef } from 'react';
import type { FieldValues, UseFormReset } from 'react-hook-form';

/**
 * Gives a dialog's form its starting values each time the dialog opens, in the commit that opens it: a
 * plain effect runs in a later task, and a browser handles input before other tasks, so keys typed the
 * moment a dialog opened could be wiped by it (the keyboard journey's date, once, on a loaded CI machine).
 * When the starting values change while the dialog is open (what they are made from arrived late), only
 * the fields nobody has changed take them. `key` says when they changed.
 */
export function useFormOnOpen<T extends FieldValues>(
  open: boolean,
  reset: UseFormReset<T>,
  values: T,
  key = '',
): void {
  const filled = useRef(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: only opening and `key` bring new values
  useLayoutEffect(() => {
    if (!open) {
      filled.current = false;
      return;
    }
    reset(values, filled.current ? { keepDirtyValues: true } : undefined);
    filled.current = true;
  }, [open, key]);
}
