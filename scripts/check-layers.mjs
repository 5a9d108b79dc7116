// The layering of docs/architecture.md, checked (npm test): a dependency rule checker over import
// statements and query-builder calls. Hand-written because dependency-cruiser 16 needs TypeScript's JS
// API (TypeScript 7 has none) and 17+ needs Node 22, and Biome's import rules match specifiers, not
// layers, and cannot see SQL (decision 025). scripts/check-layers.test.mjs plants a violation of each rule.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Every violation in the tree at `root`, as `path:line  rule`. */
export function checkLayers(root) {
  function files(dir, test) {
    const found = [];
    if (!existsSync(join(root, dir))) return found;
    for (const name of readdirSync(join(root, dir))) {
      const path = join(dir, name);
      if (statSync(join(root, path)).isDirectory()) found.push(...files(path, test));
      else if (test(path)) found.push(path);
    }
    return found;
  }

  /** Each import of a file (static, re-export, side-effect or dynamic): the specifier, whether type-only, its line. */
  function imports(path) {
    const source = readFileSync(join(root, path), 'utf8');
    const found = [];
    const patterns = [
      /^(?:import|export)\s+(type\s+)?[^;]*?from\s+'([^']+)'/gms,
      /^import\s+()'([^']+)'/gm,
      /\bimport\(\s*()'([^']+)'\s*\)/g,
    ];
    for (const pattern of patterns)
      for (const match of source.matchAll(pattern)) {
        const line = source.slice(0, match.index).split('\n').length;
        found.push({ from: match[2], typeOnly: Boolean(match[1]), line });
      }
    return found.sort((a, b) => a.line - b.line);
  }

  const isTest = (path) => /\.test\.tsx?$/.test(path);
  const ts = (path) => /\.tsx?$/.test(path) && !isTest(path);
  const violations = [];
  const report = (path, line, rule) => violations.push(`${path}:${line}  ${rule}`);

  // Server: routes call their own module's service only.
  const server = 'apps/server/src';
  for (const path of files(`${server}/modules`, ts)) {
    if (!path.endsWith('.routes.ts')) continue;
    for (const { from, typeOnly, line } of imports(path)) {
      if (!from.startsWith('.')) continue;
      const target = relative(root, join(root, dirname(path), from));
      const ownModule = dirname(path);
      if (target.endsWith('.repository')) report(path, line, `a route imports a repository (${from})`);
      else if (typeOnly) continue;
      else if (dirname(target) === ownModule) continue;
      else if (/^apps\/server\/src\/(plugins|lib)\//.test(target)) continue;
      else report(path, line, `a route imports outside its module (${from}): call its own service`);
    }
  }

  // Server: every module with routes has a service.
  const modules = join(root, server, 'modules');
  for (const dir of existsSync(modules) ? readdirSync(modules) : []) {
    const names = readdirSync(join(modules, dir));
    if (names.some((n) => n.endsWith('.routes.ts')) && !names.some((n) => n.endsWith('.service.ts')))
      report(`${server}/modules/${dir}`, 0, 'a module with routes has no service');
  }

  // Server: SQL only in repositories (and the database layer itself).
  const QUERY =
    /\.(selectFrom|insertInto|updateTable|deleteFrom|executeQuery)\(|\bsql(<[^>]*>)?`|CompiledQuery\./;
  for (const path of files(server, ts)) {
    if (path.endsWith('.repository.ts') || path.startsWith(`${server}/db${sep}`)) continue;
    readFileSync(join(root, path), 'utf8')
      .split('\n')
      .forEach((text, index) => {
        if (QUERY.test(text) && !text.trim().startsWith('//') && !text.trim().startsWith('*'))
          report(path, index + 1, 'SQL outside a repository');
      });
  }

  // Domain: pure rules, no I/O — no Node, no app code.
  for (const path of files('packages/domain/src', ts)) {
    for (const { from, line } of imports(path)) {
      if (from.startsWith('node:') || from.includes('apps/') || /^(fastify|kysely|pg|react)/.test(from))
        report(path, line, `the domain package imports ${from}`);
    }
  }

  // Web: app → features → components, lib; never back up.
  const web = 'apps/web/src';
  const order = { app: 3, features: 2, components: 1, lib: 0, sw: 0 };
  for (const path of files(web, ts)) {
    const layer = relative(join(root, web), join(root, path)).split(sep)[0];
    for (const { from, line } of imports(path)) {
      if (!from.startsWith('.')) continue;
      const target = relative(join(root, web), join(root, dirname(path), from)).split(sep)[0];
      if (order[target] !== undefined && order[layer] !== undefined && order[target] > order[layer])
        report(path, line, `${layer}/ imports ${target}/ (${from})`);
    }
  }
  // Everywhere: no import cycles. A circle of modules (type-only imports too: they tie the files' design as
  // much) has no order to read, test or load it in; the piece they share goes into a module of its own.
  // Each import that closes a circle is named once: the depth-first walk from every file in turn (in name
  // order, each file's imports in line order) meets it as an edge back to a file still on its path.
  const sources = [server, web, 'packages/domain/src'].flatMap((dir) => files(dir, ts)).sort();
  const known = new Set(sources);
  const resolve = (path, from) => {
    const base = join(dirname(path), from);
    const candidates = [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts'), join(base, 'index.tsx')];
    if (base.endsWith('.js')) candidates.push(base.replace(/\.js$/, '.ts'), base.replace(/\.js$/, '.tsx'));
    return candidates.find((candidate) => known.has(candidate));
  };
  const edges = new Map(
    sources.map((path) => [
      path,
      imports(path)
        .filter(({ from }) => from.startsWith('.'))
        .map(({ from, line }) => ({ target: resolve(path, from), line }))
        .filter(({ target }) => target !== undefined),
    ]),
  );
  const done = new Set();
  const onPath = [];
  const walk = (path) => {
    onPath.push(path);
    for (const { target, line } of edges.get(path) ?? []) {
      const at = onPath.indexOf(target);
      if (at >= 0) {
        const circle = [...onPath.slice(at), target].map((file) => relative(root, join(root, file)));
        report(path, line, `an import cycle: ${circle.join(' → ')}`);
      } else if (!done.has(target)) walk(target);
    }
    onPath.pop();
    done.add(path);
  };
  for (const path of sources) if (!done.has(path)) walk(path);

  return violations;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const violations = checkLayers(process.argv[2] ?? fileURLToPath(new URL('..', import.meta.url)));
  if (violations.length > 0) {
    console.error(`Layering: ${violations.length} violation(s) (docs/architecture.md):`);
    for (const violation of violations) console.error(`  ${violation}`);
    process.exit(1);
  }
  console.log(
    'Layering: ok (routes → own service → repository; SQL in repositories; domain pure; web one-way; no import cycles)',
  );
}
