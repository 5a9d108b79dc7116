// node --test scripts/check-private-members.test.mjs (run by scripts/test.sh before the check itself): the
// project passes, and each rule fails on a planted violation, in a fixture string and in a file planted in
// a copy of the project.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { ALLOWED, checkPrivateMembers, checkSource, projectFiles } from './check-private-members.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SCRIPT = fileURLToPath(new URL('./check-private-members.mjs', import.meta.url));

/** Fixtures: a line of code, and what the check says of it (in a file of its own, on its line 2). */
const PLANTS = {
  "a pg Query's private method": [
    'query._getRows(connection, rows);',
    "a library's private member (._getRows)",
  ],
  'a private field through optional chaining': [
    'const parsers = result?._parsers;',
    "a library's private member (._parsers)",
  ],
  'a private field on this (a method put on a library class)': [
    'this._prebuiltEmptyResultObject = row;',
    "a library's private member (._prebuiltEmptyResultObject)",
  ],
  'a private member by its name in brackets': [
    "const types = result['_types'];",
    "a library's private member (['_types'])",
  ],
  "a library's global config written in a string of code": [
    "const JITLESS = 'globalThis.__zod_globalConfig = { jitless: true };';",
    "a library's private member (.__zod_globalConfig)",
  ],
  "pg's parse bookkeeping": [
    'if (connection.parsedStatements[name] === undefined) parse();',
    "one of pg's internals (parsedStatements)",
  ],
  "pg's sent statements": [
    'connection.submittedNamedStatements[name] = text;',
    "one of pg's internals (submittedNamedStatements)",
  ],
  "a pg Query's handler overridden": [
    'class Piped extends pg.Query { handleCommandComplete() {} }',
    "one of pg's internals (handleCommandComplete)",
  ],
  "pg Client's undocumented backend id": [
    'const pid = client.processID;',
    "one of pg's internals (processID)",
  ],
  'a prototype method replaced': [
    'Something.prototype.query = function () {};',
    'a prototype written (.prototype.query =)',
  ],
  'a prototype replaced': ['Widget.prototype = {};', 'a prototype written (.prototype =)'],
  "a package's prototype read": [
    'const own = pg.Result.prototype.addFields;',
    "a package's prototype (pg.Result.prototype)",
  ],
  "a package's prototype spied on": [
    "vi.spyOn(pg.Client.prototype, 'query');",
    "a package's prototype (pg.Client.prototype)",
  ],
};

/** A fixture's file: an import of pg (for the prototype rules), then the line. */
const fixture = (line) => `import pg from 'pg';\n${line}\n`;

for (const [name, [line, rule]] of Object.entries(PLANTS)) {
  test(`fails on ${name}, naming the file, the line and the rule`, () => {
    assert.deepEqual(checkSource('bench/planted.ts', fixture(line), []), [`bench/planted.ts:2  ${rule}`]);
  });
}

test('passes look-alikes: comments, patterns, array literals, spreads, the platform, its own code', () => {
  const source = [
    "import pg from 'pg';",
    "import { Local } from './local';",
    '// pg once had query._getRows and connection.parsedStatements; Result.prototype.addFields = ours',
    '/* Something.prototype.query = … */',
    "const name = raw.replace(/[^A-Za-z0-9._-]+/g, '-');",
    "const keys = ['__proto__', '_hidden'];",
    'const { a, ...__rest } = value;',
    "vi.spyOn(HTMLMediaElement.prototype, 'play');",
    'const method = Local.prototype.run;',
    "const path = base + '/_next/' + file;",
    'const ratio = total / count; const again = /x/.test(name);',
  ].join('\n');
  assert.deepEqual(checkSource('apps/web/src/fixture.test.ts', source, []), []);
});

test('covers apps/web/vite.config.ts, whose zod global only a temporary entry allows', () => {
  const path = 'apps/web/vite.config.ts';
  assert.ok(projectFiles(ROOT).includes(path));
  const source = readFileSync(join(ROOT, path), 'utf8');
  // Once the global is gone from the file, its entry fails the check instead (the next test).
  if (source.includes('__zod_globalConfig'))
    assert.match(
      checkSource(path, source, []).join('\n'),
      /^apps\/web\/vite\.config\.ts:\d+ {2}a library's private member \(\.__zod_globalConfig\)$/m,
    );
});

test('the project as it is passes', () => {
  assert.deepEqual(checkPrivateMembers(ROOT), []);
});

let planted;
before(() => {
  // The project's checked files, and a bench file with every fixture line in it.
  planted = mkdtempSync(join(tmpdir(), 'parley-internals-'));
  for (const path of projectFiles(ROOT)) {
    mkdirSync(join(planted, dirname(path)), { recursive: true });
    cpSync(join(ROOT, path), join(planted, path));
  }
  writeFileSync(
    join(planted, 'bench/planted.ts'),
    `import pg from 'pg';\n${Object.values(PLANTS)
      .map(([line]) => line)
      .join('\n')}\n`,
  );
});
after(() => rmSync(planted, { recursive: true, force: true }));

test('the command exits non-zero and lists every planted violation, and nothing else', () => {
  const run = spawnSync(process.execPath, [SCRIPT, planted], { encoding: 'utf8' });
  assert.equal(run.status, 1);
  const listed = run.stderr.split('\n').filter((line) => line.startsWith('  '));
  assert.deepEqual(
    listed,
    Object.values(PLANTS).map(([, rule], index) => `  bench/planted.ts:${index + 2}  ${rule}`),
  );
});

test('an allowed entry whose use is gone fails, so that it is deleted', () => {
  const entry = { file: 'bench/planted.ts', member: '__nothing_here', reason: 'a test' };
  assert.ok(
    checkPrivateMembers(planted, [...ALLOWED, entry]).includes(
      'bench/planted.ts:0  an allowed entry that matches nothing (__nothing_here): delete it',
    ),
  );
});
