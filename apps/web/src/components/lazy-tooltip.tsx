import type { TooltipProps } from '@mui/material/Tooltip';
import {
  type ComponentType,
  cloneElement,
  type FocusEvent,
  type PointerEvent,
  type ReactElement,
  type Ref,
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
} from 'react';

type ChildProps = {
  ref?: Ref<HTMLElement>;
  'aria-label'?: string;
  onPointerEnter?: (event: PointerEvent) => void;
  onPointerLeave?: (event: PointerEvent) => void;
  onFocus?: (event: FocusEvent) => void;
  onBlur?: (event: FocusEvent) => void;
};

let loaded: ComponentType<TooltipProps> | undefined;
const FOCUSABLE = 'button, a[href], input, [tabindex]';

/**
 * MUI's Tooltip, fetched the first time a mouse points at its child or the keyboard focuses it: the tooltip
 * brings Popper (about 11 KB gzipped) that the login page, a booking link and home need only then (decision
 * 019). Until it has loaded the child is named by the title, as the Tooltip names it; the hover or focus
 * that asked for it opens it once it is there. Wrapping the child in the Tooltip mounts it again: a focus
 * it had is put back on the new element, so a keyboard user keeps their place.
 */
export function LazyTooltip({ title, children }: { title: string; children: ReactElement<ChildProps> }) {
  const [Tooltip, setTooltip] = useState(() => loaded);
  const [open, setOpen] = useState(false);
  const [wanted, setWanted] = useState(false);
  const node = useRef<HTMLElement | null>(null);
  const refocus = useRef(false);
  useEffect(() => {
    if (!wanted || Tooltip) return;
    let live = true;
    void import('@mui/material/Tooltip').then((module) => {
      loaded = module.default;
      if (!live) return;
      refocus.current = Boolean(node.current?.contains(document.activeElement));
      setTooltip(() => module.default);
    });
    return () => {
      live = false;
    };
  }, [wanted, Tooltip]);
  useLayoutEffect(() => {
    if (!Tooltip || !refocus.current) return;
    refocus.current = false;
    const element = node.current;
    const target = element?.matches(FOCUSABLE) ? element : element?.querySelector<HTMLElement>(FOCUSABLE);
    target?.focus({ preventScroll: true });
  }, [Tooltip]);

  if (Tooltip) {
    return (
      <Tooltip title={title} open={open} onOpen={() => setOpen(true)} onClose={() => setOpen(false)}>
        {cloneElement(children, { ref: node })}
      </Tooltip>
    );
  }
  const own = children.props;
  const show = (yes: boolean) => {
    setOpen(yes);
    if (yes) setWanted(true);
  };
  return cloneElement(children, {
    ref: node,
    'aria-label': own['aria-label'] ?? title,
    onPointerEnter: (event) => {
      if (event.pointerType === 'mouse') show(true);
      own.onPointerEnter?.(event);
    },
    onPointerLeave: (event) => {
      show(false);
      own.onPointerLeave?.(event);
    },
    onFocus: (event) => {
      // As MUI's Tooltip: keyboard focus only (a tap or click focuses too, without a tooltip).
      if (event.target instanceof Element && event.target.matches(':focus-visible')) show(true);
      own.onFocus?.(event);
    },
    onBlur: (event) => {
      show(false);
      own.onBlur?.(event);
    },
  });
}
