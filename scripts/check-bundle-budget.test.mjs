// node --test scripts/check-bundle-budget.test.mjs (run by scripts/test.sh before the check itself)
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkBudgets, pageFiles } from './check-bundle-budget.mjs';

const manifest = {
  'index.html': { file: 'assets/index-a.js', isEntry: true, imports: ['_react-b.js', '_mui-c.js'] },
  '_react-b.js': { file: 'assets/react-b.js' },
  '_mui-c.js': { file: 'assets/mui-c.js', imports: ['_react-b.js'] },
  '_style-d.css': { file: 'assets/style-d.css' },
  'src/layout.tsx': {
    file: 'assets/layout-e.js',
    imports: ['_mui-c.js', '_style-d.css'],
    dynamicImports: ['src/admin.tsx'],
  },
  'src/page.tsx': { file: 'assets/page-f.js', imports: ['_zod-g.js'], isDynamicEntry: true },
  '_zod-g.js': { file: 'assets/zod-g.js', imports: ['_react-b.js'] },
  'src/admin.tsx': { file: 'assets/admin-h.js', isDynamicEntry: true },
};

test('a page loads the entry, its layout and screen, each with its static imports, each file once', () => {
  assert.deepEqual(pageFiles(manifest, ['src/layout.tsx', 'src/page.tsx']), [
    'assets/index-a.js',
    'assets/react-b.js',
    'assets/mui-c.js',
    'assets/layout-e.js',
    'assets/page-f.js',
    'assets/zod-g.js',
  ]);
});

test('dynamic imports and CSS are not counted; a module missing from the build is an error', () => {
  assert.ok(!pageFiles(manifest, ['src/layout.tsx']).includes('assets/admin-h.js'));
  assert.ok(!pageFiles(manifest, ['src/layout.tsx']).some((file) => file.endsWith('.css')));
  assert.throws(() => pageFiles(manifest, ['src/gone.tsx']), /not in the build's manifest/);
  assert.throws(() => pageFiles({}, []), /no entry/);
});

test('a page over its limit fails, one under it passes; the goal is reported apart', () => {
  const size = { 'assets/index-a.js': 1024, 'assets/react-b.js': 2048, 'assets/mui-c.js': 1024 };
  const gzipped = (file) => size[file] ?? 512;
  const [small, large] = checkBudgets(
    manifest,
    [
      { name: 'small', limitKb: 4, goalKb: 3, modules: [] },
      { name: 'large', limitKb: 5, goalKb: 5, modules: ['src/layout.tsx', 'src/page.tsx'] },
    ],
    gzipped,
  );
  assert.equal(small.total, 4096);
  assert.equal(small.ok, true);
  assert.equal(small.goalMet, false);
  assert.equal(large.total, 4096 + 3 * 512);
  assert.equal(large.ok, false);
  assert.deepEqual(
    large.chunks.map((chunk) => chunk.file),
    pageFiles(manifest, ['src/layout.tsx', 'src/page.tsx']),
  );
});
