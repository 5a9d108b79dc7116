// What React DOM does that preact/compat does not, done once for every element (decision 019). The app
// renders with Preact in React's place (apps/web/preact-aliases.ts); this module is imported before anything
// renders (main.tsx, and the web tests' test-support/setup.ts), and its tests (preact-parity.test.tsx) fail
// without it.
//
// preact/compat already gives most of React's event names their React meaning (onFocus/onBlur listen to the
// bubbling `focusin`/`focusout`, onDoubleClick is `dblclick`), and has `defaultValue`, `ref` in props,
// `useId`, portals, Suspense and `useSyncExternalStore`; the tests hold those too.
import { options, type VNode } from 'preact';
// compat's own vnode hook first: ours wraps it (see the end of this file).
import 'preact/compat';

type ElementRef = ((element: HTMLElement | null) => unknown) | { current: HTMLElement | null } | null;

/** The elements React focuses on mount when they carry `autoFocus` (ReactDOM's `commitMount`). */
const FOCUSED_ON_MOUNT = new Set(['button', 'input', 'select', 'textarea']);
const focused = new WeakSet<Element>();
const withFocus = new WeakMap<object, (element: HTMLElement | null) => unknown>();

function focusOnce(element: HTMLElement | null) {
  if (!element || focused.has(element)) return;
  focused.add(element);
  element.focus();
}

/**
 * The element's ref, focusing the element first when it is attached. One wrapper per ref, so a render that
 * keeps the ref keeps the wrapper (Preact re-attaches a ref only when it changes, as React does), and each
 * element is focused once: on mount, like React, never again on a later render.
 */
function focusingRef(ref: ElementRef): (element: HTMLElement | null) => unknown {
  if (!ref) return focusOnce;
  let wrapper = withFocus.get(ref);
  if (!wrapper) {
    wrapper = (element) => {
      focusOnce(element);
      if (typeof ref === 'function') return ref(element); // a React 19 cleanup function is passed on
      ref.current = element;
      return undefined;
    };
    withFocus.set(ref, wrapper);
  }
  return wrapper;
}

type ChangeHandler = (event: Event) => unknown;
const valueAtLastChange = new WeakMap<EventTarget, string>();

/** React's onChange of a text box: called for the value it has now, once, whichever event brought it. */
function onValueChange(handler: ChangeHandler): ChangeHandler {
  return (event) => {
    const box = event.currentTarget as HTMLInputElement | HTMLTextAreaElement;
    if (event.type === 'change' && valueAtLastChange.get(box) === box.value) return undefined;
    valueAtLastChange.set(box, box.value);
    return handler(event);
  };
}

/**
 * `onChange` of a text box or textarea: React calls it for an `input` event and for a `change` event that
 * brings a value it has not reported yet (its value tracker); compat listens to `input` only. A script or
 * a password manager that sets the value and dispatches `change` alone (as Testing Library's
 * fireEvent.change does) went unnoticed, and the form kept the old value. Here the handler listens to
 * both, and a `change` that follows the `input` events of the same value (a browser's change on leaving
 * the field) is not reported twice. The `change` listener goes under onChangeCapture, the one name compat
 * does not turn into `input` (on the box itself capture or not makes no difference).
 */
function changeOnInputAndChange(vnode: VNode) {
  if (vnode.type !== 'input' && vnode.type !== 'textarea') return;
  const props = vnode.props as {
    type?: unknown;
    onChange?: ChangeHandler;
    onChangeCapture?: ChangeHandler;
  };
  // Checkboxes, radios and files: their onChange is the `change` event already, as compat leaves it.
  if (typeof props.onChange !== 'function' || /fil|che|rad/.test(String(props.type))) return;
  const handler = onValueChange(props.onChange);
  const own = props.onChangeCapture;
  props.onChange = handler;
  props.onChangeCapture = own
    ? (event) => {
        own(event);
        return event.type === 'change' ? handler(event) : undefined;
      }
    : handler;
}

/**
 * `autoFocus`: React never writes the attribute (a browser honours it only once per page, at load) but
 * focuses a new button, input, select or textarea when it is committed — a dialog's first field, the
 * two-factor code. Preact writes the attribute and leaves focus alone. Here the prop is kept from the DOM
 * and the element's ref focuses it when Preact attaches it: in the commit, after the whole tree is in the
 * document and before effects run, as React does (MUI's focus trap, in an effect, then finds the focus
 * inside and leaves it there).
 */
function autoFocusOnMount(vnode: VNode) {
  if (typeof vnode.type !== 'string') return;
  const props = vnode.props as { autoFocus?: unknown; ref?: ElementRef };
  if (!('autoFocus' in props)) return;
  const { autoFocus } = props;
  delete props.autoFocus;
  if (!autoFocus || !FOCUSED_ON_MOUNT.has(vnode.type)) return;
  // compat then copies it into props, where React 19 keeps it and MUI reads it to merge refs on a clone.
  vnode.ref = focusingRef((vnode.ref as ElementRef | undefined) ?? null) as VNode['ref'];
}

/**
 * When effects run. React runs a render's useEffect callbacks in its scheduler's next task (a
 * MessageChannel message; setImmediate where there is one, as in Node), so a query starts fetching, or a
 * value is stored, right after the screen is committed. Preact waits for the next animation frame (up to
 * 35 ms, and never in a hidden tab), which started every fetch of a screen one frame later. Preact's hooks
 * take their scheduler from `options.requestAnimationFrame`: React's is given here.
 */
function nextTask(): (callback: () => void) => void {
  const queue: (() => void)[] = [];
  const flush = () => {
    for (const callback of queue.splice(0)) callback();
  };
  // setImmediate is Node's (the web tests), never a browser's: the DOM's types do not know it.
  const { setImmediate } = globalThis as { setImmediate?: (callback: () => void) => unknown };
  let post: () => void;
  if (setImmediate) post = () => setImmediate(flush);
  else if (typeof MessageChannel === 'function') {
    const channel = new MessageChannel();
    channel.port1.onmessage = flush;
    post = () => channel.port2.postMessage(null);
  } else post = () => setTimeout(flush, 0);
  return (callback) => {
    if (queue.push(callback) === 1) post();
  };
}
options.requestAnimationFrame = nextTask();

// Before compat's own hook, which turns React's props into Preact's (onChange → oninput, ref into props).
const compatVNodeHook = options.vnode;
options.vnode = (vnode) => {
  changeOnInputAndChange(vnode);
  autoFocusOnMount(vnode);
  compatVNodeHook?.(vnode);
};
