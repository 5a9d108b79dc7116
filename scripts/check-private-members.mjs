// Libraries through their public APIs only, checked (npm test): no project file reaches into another
// package's private members or rewrites a library's prototype. Such code works until the library's next
// patch release changes what it reached into, and no type or test of the library says so (issue 38:
// db/database.ts once subclassed pg.Query and wrote its protocol messages, and a pg.Result method was
// replaced process-wide). Like check-layers.mjs it reads the source as text (TypeScript 7 has no JS API):
// comments are blanked first, strings are kept (code written into a string runs too). What it refuses:
//
// - a member whose name starts with `_`, reached with `.`, `?.` or `['…']` (`._getRows`,
//   `.__zod_globalConfig`); on `this` too (the project's own classes keep their fields in #private ones);
// - pg's undocumented members by name (its parse bookkeeping, its Query's handlers, Client's processID);
// - a prototype written (`X.prototype.y = …`, `X.prototype = …`), and any prototype of a binding imported
//   from a package (`pg.Client.prototype`, read, spied on or changed: a library's prototype is its inside).
//
// A use that is no library's private member (a name the project owns, a library's documented hook) is
// allowed by an entry below naming its file and member, with the reason; an entry that matches nothing
// fails too, so none outlives its use. scripts/check-private-members.test.mjs plants a violation of each
// rule.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Allowed uses: the file, the member, and why it is not a library's private member. */
export const ALLOWED = [
  {
    file: 'apps/web/src/sw/service-worker.ts',
    member: '__WB_MANIFEST',
    reason: "Workbox's documented injectManifest placeholder, replaced by the build with the precache list",
  },
  {
    file: 'apps/web/src/app/prerendered.test.tsx',
    member: '__parleyPrerendered',
    reason: "the project's own global (apps/web/src/app/prerendered.tsx), set by the prerendered page",
  },
];

/** pg's members that are not its API (not in its documentation nor in @types/pg). */
const PG_INTERNALS = ['parsedStatements', 'submittedNamedStatements', 'handleCommandComplete', 'processID'];

const EXTENSIONS = /\.(ts|tsx|mts|cts|js|mjs|cjs)$/;
/** Folders never searched: installed or built code, the native shells, static assets, dot-folders. */
const SKIPPED = new Set([
  'node_modules',
  'dist',
  'android',
  'ios',
  'public',
  'data',
  'coverage',
  'test-results',
]);
/** The check's own files, which name what they refuse. */
const OWN = ['scripts/check-private-members.mjs', 'scripts/check-private-members.test.mjs'];

/** The project files checked, relative to root: apps, packages, scripts, benches, journeys, root configs. */
export function projectFiles(root) {
  const found = [];
  const walk = (dir) => {
    if (!existsSync(join(root, dir))) return;
    for (const name of readdirSync(join(root, dir))) {
      if (name.startsWith('.') || SKIPPED.has(name)) continue;
      const path = dir ? `${dir}/${name}` : name;
      if (statSync(join(root, path)).isDirectory()) {
        if (dir) walk(path);
      } else if (EXTENSIONS.test(name)) found.push(path);
    }
  };
  walk(''); // the root's own files (vitest.config.ts, …)
  for (const dir of ['apps', 'packages', 'scripts', 'bench', 'e2e']) walk(dir);
  return found.filter((path) => !OWN.includes(path)).sort();
}

/**
 * The source with every comment and every regular expression's pattern blanked (newlines kept, so lines
 * still count), strings and template literals kept as they are.
 */
export function withoutComments(source) {
  let out = '';
  let i = 0;
  // Brace depths at which a template literal's `${` opened: its `}` returns to the template.
  const templates = [];
  let depth = 0;
  // The last character outside comments and white space: whether a `/` starts a regular expression.
  let last = '';
  let lastWord = '';
  const blank = (text) => text.replace(/[^\n]/g, ' ');
  const copyTemplate = () => {
    // From inside a template literal to its end, or to a `${` (then back in code).
    while (i < source.length) {
      const c = source[i];
      if (c === '\\') {
        out += source.slice(i, i + 2);
        i += 2;
      } else if (c === '`') {
        out += c;
        i += 1;
        last = '`';
        return;
      } else if (c === '$' && source[i + 1] === '{') {
        out += '${';
        i += 2;
        depth += 1;
        templates.push(depth);
        last = '{';
        return;
      } else {
        out += c;
        i += 1;
      }
    }
  };
  while (i < source.length) {
    const c = source[i];
    const next = source[i + 1];
    if (c === '/' && next === '/') {
      const end = source.indexOf('\n', i);
      const stop = end < 0 ? source.length : end;
      out += blank(source.slice(i, stop));
      i = stop;
    } else if (c === '/' && next === '*') {
      const end = source.indexOf('*/', i + 2);
      const stop = end < 0 ? source.length : end + 2;
      out += blank(source.slice(i, stop));
      i = stop;
    } else if (c === "'" || c === '"') {
      let j = i + 1;
      while (j < source.length && source[j] !== c && source[j] !== '\n') j += source[j] === '\\' ? 2 : 1;
      out += source.slice(i, j + 1);
      i = j + 1;
      last = c;
    } else if (c === '`') {
      out += c;
      i += 1;
      copyTemplate();
    } else if (
      c === '/' &&
      (last === '' ||
        '(,=:[!&|?{};+-*%<>~^'.includes(last) ||
        [
          'return',
          'typeof',
          'case',
          'do',
          'else',
          'in',
          'of',
          'new',
          'delete',
          'void',
          'throw',
          'yield',
          'await',
        ].includes(lastWord))
    ) {
      // A regular expression literal: to its closing `/` (not one escaped or inside a class), then flags.
      let j = i + 1;
      let inClass = false;
      while (j < source.length && source[j] !== '\n') {
        const r = source[j];
        if (r === '\\') j += 1;
        else if (r === '[') inClass = true;
        else if (r === ']') inClass = false;
        else if (r === '/' && !inClass) break;
        j += 1;
      }
      // Its pattern blanked: a character class such as [._-] is no member access.
      out += `/${blank(source.slice(i + 1, j))}/`;
      i = j + 1;
      last = '/';
    } else {
      if (c === '{') depth += 1;
      else if (c === '}') {
        if (templates.at(-1) === depth) {
          templates.pop();
          depth -= 1;
          out += c;
          i += 1;
          copyTemplate();
          continue;
        }
        depth -= 1;
      }
      out += c;
      i += 1;
      if (!/\s/.test(c)) {
        last = c;
        lastWord = /[\w$]/.test(c) ? (/[\w$]/.test(source[i - 2] ?? '') ? lastWord + c : c) : '';
      }
    }
  }
  return out;
}

/** The local names a file binds from packages (bare or node: specifiers), not from its own project. */
function packageBindings(code) {
  const names = new Set();
  const imports = /\bimport\s+(?:type\s+)?([^'";]*?)\s+from\s+['"]([^'"]+)['"]/g;
  for (const [, clause, from] of code.matchAll(imports)) {
    if (from.startsWith('.') || from.startsWith('/')) continue;
    for (const part of clause.replace(/[{}]/g, ',').split(',')) {
      const name = part
        .trim()
        .replace(/^type\s+/, '')
        .split(/\s+as\s+/)
        .at(-1)
        ?.replace(/^\*\s*/, '')
        .trim();
      if (name && /^[\w$]+$/.test(name)) names.add(name);
    }
  }
  const requires = /\b(?:const|let|var)\s+([\w$]+)\s*=\s*require\(\s*['"]([^'"./][^'"]*)['"]\s*\)/g;
  for (const [, name] of code.matchAll(requires)) names.add(name);
  return names;
}

const RULES = [
  {
    // Not a spread (`...__rest`). On `this` too: a method put on a library's class reaches its fields
    // through `this` (the project's own classes keep theirs in #private fields).
    pattern: /(?<!\.\.)(?:\?\.|\.)\s*(_[\w$]*)/g,
    rule: (member) => `a library's private member (.${member})`,
  },
  {
    // An index into a value (after a name, a call or an index), not an array literal.
    pattern: /(?<=[\w$)\]]\s*)\[\s*(['"`])(_[\w$]*)\1\s*\]/g,
    rule: (member) => `a library's private member (['${member}'])`,
    group: 2,
  },
  {
    pattern: new RegExp(`\\b(${PG_INTERNALS.join('|')})\\b`, 'g'),
    rule: (member) => `one of pg's internals (${member})`,
  },
  {
    pattern: /\.prototype((?:\s*\.\s*[\w$]+|\s*\[[^\]\n]*\])?)\s*(?:=(?![=>])|\+=|-=|\|\|=|&&=|\?\?=)/g,
    rule: (member) => `a prototype written (.prototype${member.replace(/\s/g, '')} =)`,
  },
];

/** The violations in one file's source, as `path:line  rule`; `allowed` as ALLOWED. */
export function checkSource(path, source, allowed = ALLOWED, used = new Set()) {
  const code = withoutComments(source);
  const lineOf = (index) => code.slice(0, index).split('\n').length;
  const found = [];
  const report = (index, member, rule) => {
    const entry = allowed.find((allow) => allow.file === path && allow.member === member);
    if (entry) used.add(entry);
    else found.push(`${path}:${lineOf(index)}  ${rule}`);
  };
  for (const { pattern, rule, group = 1 } of RULES)
    for (const match of code.matchAll(pattern)) report(match.index, match[group], rule(match[group]));
  // A package's prototype, however reached: `pg.Client.prototype`, `Result.prototype`.
  const bindings = packageBindings(code);
  for (const match of code.matchAll(/(?<![\w$.])([\w$]+)((?:\s*\.\s*[\w$]+)*?)\s*\.\s*prototype\b/g)) {
    if (bindings.has(match[1]))
      report(
        match.index,
        'prototype',
        `a package's prototype (${match[1]}${match[2].replace(/\s/g, '')}.prototype)`,
      );
  }
  return found;
}

/** Every violation in the tree at `root`, and every allowed entry that matched nothing. */
export function checkPrivateMembers(root, allowed = ALLOWED) {
  const used = new Set();
  const found = [];
  for (const path of projectFiles(root)) {
    const lineOf = (violation) => Number(violation.split('  ')[0].split(':').at(-1));
    const inFile = checkSource(path, readFileSync(join(root, path), 'utf8'), allowed, used);
    found.push(...inFile.sort((a, b) => lineOf(a) - lineOf(b)));
  }
  for (const entry of allowed)
    if (!used.has(entry) && existsSync(join(root, entry.file)))
      found.push(`${entry.file}:0  an allowed entry that matches nothing (${entry.member}): delete it`);
    else if (!used.has(entry))
      found.push(`${entry.file}:0  an allowed entry for a file that is gone (${entry.member}): delete it`);
  return found;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = process.argv[2] ?? fileURLToPath(new URL('..', import.meta.url));
  const violations = checkPrivateMembers(root);
  if (violations.length > 0) {
    console.error(`Library internals: ${violations.length} violation(s) (use the libraries' public APIs):`);
    for (const violation of violations) console.error(`  ${violation}`);
    process.exit(1);
  }
  console.log(`Library internals: ok (${projectFiles(root).length} files; public APIs only)`);
}
