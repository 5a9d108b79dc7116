#!/usr/bin/env node
// The web budget (issue 13, decision 019): the gzipped JavaScript a page loads before it is interactive —
// the entry, everything it imports statically, and the layout and screen chunks the router fetches for
// that page (with their static imports) — read from the build's manifest. Prints every chunk and fails
// when a page is over its limit, so a regression cannot land silently.
// Each page has a limit (enforced: today's size with a little room, lowered as the pages shrink) and the
// issue's goal (printed until it is met, then the limit becomes the goal).
// Usage: node scripts/check-bundle-budget.mjs [dist directory, default apps/web/dist]
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const KB = 1024;

/** The pages a parent opens first, the modules the router loads for each, and their budgets. */
export const PAGES = [
  {
    name: 'login (/auth/login)',
    limitKb: 203.1,
    goalKb: 204.1,
    modules: ['src/app/layouts/auth-layout.tsx', 'src/features/auth/components/login-page.tsx'],
  },
  {
    name: 'booking link (/book/ptevent/{code}, /book/event/{code})',
    limitKb: 227.7,
    goalKb: 228.2,
    modules: ['src/app/layouts/booking-layout.tsx', 'src/features/booking/components/booking-page.tsx'],
  },
  {
    name: 'home (/home)',
    limitKb: 248.7,
    goalKb: 249.7,
    modules: ['src/app/layouts/main-layout.tsx', 'src/features/home/components/home-page.tsx'],
  },
];

/**
 * The JavaScript files a page loads up front: the HTML entry and the given modules, each with its static
 * imports (never its dynamic ones: those load later, when used), each file once, in load order.
 * @param {Record<string, { file: string, imports?: string[], isEntry?: boolean }>} manifest
 * @param {string[]} modules manifest keys of the lazily loaded modules the page needs
 */
export function pageFiles(manifest, modules) {
  const entry = Object.keys(manifest).find((key) => manifest[key].isEntry);
  if (!entry) throw new Error('The manifest has no entry');
  const files = [];
  const seen = new Set();
  const visit = (key) => {
    if (seen.has(key)) return;
    seen.add(key);
    const chunk = manifest[key];
    if (!chunk) throw new Error(`${key} is not in the build's manifest: update PAGES in this script`);
    if (chunk.file.endsWith('.js')) files.push(chunk.file);
    for (const dependency of chunk.imports ?? []) visit(dependency);
  };
  for (const key of [entry, ...modules]) visit(key);
  return files;
}

/**
 * Each page's files with their gzipped sizes, its total and whether it fits.
 * @param {(file: string) => number} gzippedSize
 */
export function checkBudgets(manifest, pages, gzippedSize) {
  return pages.map((page) => {
    const chunks = pageFiles(manifest, page.modules).map((file) => ({ file, bytes: gzippedSize(file) }));
    const total = chunks.reduce((sum, chunk) => sum + chunk.bytes, 0);
    return { ...page, chunks, total, ok: total <= page.limitKb * KB, goalMet: total <= page.goalKb * KB };
  });
}

const kb = (bytes) => `${(bytes / KB).toFixed(1).padStart(7)} KB`;

function main() {
  const dist = resolve(process.argv[2] ?? 'apps/web/dist');
  const manifest = JSON.parse(readFileSync(join(dist, '.vite', 'manifest.json'), 'utf8'));
  // Level 9, as the build's .gz files (apps/web/vite.config.ts); browsers that take brotli get less.
  const gzippedSize = (file) => gzipSync(readFileSync(join(dist, file)), { level: 9 }).length;
  const results = checkBudgets(manifest, PAGES, gzippedSize);
  for (const page of results) {
    const goal = page.goalMet ? `goal ${page.goalKb} KB met` : `goal ${page.goalKb} KB not met yet`;
    console.log(
      `\n${page.name}: ${kb(page.total)} gzipped JS, limit ${page.limitKb} KB ${page.ok ? 'ok' : 'EXCEEDED'}, ${goal}`,
    );
    for (const chunk of [...page.chunks].sort((a, b) => b.bytes - a.bytes)) {
      console.log(`  ${kb(chunk.bytes)}  ${chunk.file}`);
    }
  }
  const over = results.filter((page) => !page.ok);
  if (over.length > 0) {
    console.error(`\nBundle budget exceeded: ${over.map((page) => page.name).join(', ')}`);
    console.error('See where the bytes go with ANALYZE=1 npm run build (apps/web/dist/.stats.html).');
    process.exit(1);
  }
  console.log('\nEvery page within its limit.');
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
