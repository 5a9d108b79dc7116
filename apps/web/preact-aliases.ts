// Preact renders the web app in React's place (decision 019): every import of React, by our code or by a
// library (MUI, emotion, React Router, TanStack Query, react-hook-form, Testing Library), resolves to
// preact/compat. Shared by the build (vite.config.ts) and the web unit tests (vitest.config.ts), so the
// tests run on what ships. Exact matches only: `react-router` and `react-hook-form` are not React.
import type { Alias } from 'vite';

export const preactAliases: Alias[] = [
  { find: /^react$/, replacement: 'preact/compat' },
  { find: /^react-dom$/, replacement: 'preact/compat' },
  { find: /^react-dom\/client$/, replacement: 'preact/compat/client' },
  // The compat runtimes load preact/compat first, so its vnode hooks see every element.
  { find: /^react\/jsx-runtime$/, replacement: 'preact/compat/jsx-runtime' },
  { find: /^react\/jsx-dev-runtime$/, replacement: 'preact/compat/jsx-dev-runtime' },
  // Testing Library's act() where React 19 has none to offer (React.act is not in compat).
  { find: /^react-dom\/test-utils$/, replacement: 'preact/test-utils' },
];
