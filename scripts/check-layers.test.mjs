// node --test scripts/check-layers.test.mjs (run by scripts/test.sh before the check itself): the layering
// check passes on a copy of the tree, and fails naming each rule when a violation of it is planted.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { appendFileSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { checkLayers } from './check-layers.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SCRIPT = fileURLToPath(new URL('./check-layers.mjs', import.meta.url));
const SOURCES = ['apps/server/src', 'apps/web/src', 'packages/domain/src'];

/** A copy of the checked sources, with `plant` applied to it. */
function copy(plant = () => {}) {
  const dir = mkdtempSync(join(tmpdir(), 'parley-layers-'));
  for (const source of SOURCES) cpSync(join(ROOT, source), join(dir, source), { recursive: true });
  plant(dir);
  return dir;
}

/** The line a plant went on: the last of the file (it ends with a newline). */
const plantedLine = (dir, file) => readFileSync(join(dir, file), 'utf8').split('\n').length - 1;

const PLANTS = {
  'a route importing a repository': {
    file: 'apps/server/src/modules/people/people.routes.ts',
    text: "import { listPeople } from './people.repository';",
    expect: 'a route imports a repository (./people.repository)',
  },
  "a route calling another module's service": {
    file: 'apps/server/src/modules/subjects/subjects.routes.ts',
    text: "import { listPeople } from '../people/people.service';",
    expect: 'a route imports outside its module (../people/people.service): call its own service',
  },
  'SQL in a service': {
    file: 'apps/server/src/modules/subjects/subjects.service.ts',
    text: "export const leak = (db: Db) => db.selectFrom('users').selectAll().execute();",
    expect: 'SQL outside a repository',
  },
  'a raw sql template in a plugin': {
    file: 'apps/server/src/plugins/metrics.ts',
    text: 'export const raw = sql`select 1`;',
    expect: 'SQL outside a repository',
  },
  'a web feature importing app/': {
    file: 'apps/web/src/features/home/home-logic.ts',
    text: "import { ROUTES } from '../../app/route-table';",
    expect: 'features/ imports app/ (../../app/route-table)',
  },
  'a component loading a feature lazily': {
    file: 'apps/web/src/components/pull-to-refresh.tsx',
    text: "export const later = () => import('../features/home/home-logic');",
    expect: 'components/ imports features/ (../features/home/home-logic)',
  },
  'the domain importing an app': {
    file: 'packages/domain/src/slots.ts',
    text: "import { parseConfig } from '../../../apps/server/src/config';",
    expect: 'the domain package imports ../../../apps/server/src/config',
  },
  'an import cycle (type-only imports count)': {
    file: 'apps/server/src/push/push-guard.ts',
    text: "import type { Config } from '../config';",
    expect:
      'an import cycle: apps/server/src/config.ts → apps/server/src/push/push-guard.ts → apps/server/src/config.ts',
  },
  'the domain importing Node': {
    file: 'packages/domain/src/ics.ts',
    text: "import { readFileSync } from 'node:fs';",
    expect: 'the domain package imports node:fs',
  },
};

let clean;
let planted;
before(() => {
  clean = copy();
  planted = copy((dir) => {
    for (const plant of Object.values(PLANTS)) appendFileSync(join(dir, plant.file), `\n${plant.text}\n`);
    // A module with routes and no service.
    mkdirSync(join(dir, 'apps/server/src/modules/orphan'));
    writeFileSync(join(dir, 'apps/server/src/modules/orphan/orphan.routes.ts'), 'export {};\n');
  });
});
after(() => {
  rmSync(clean, { recursive: true, force: true });
  rmSync(planted, { recursive: true, force: true });
});

test('the tree as it is passes', () => {
  assert.deepEqual(checkLayers(clean), []);
});

for (const [name, plant] of Object.entries(PLANTS)) {
  test(`fails on ${name}, naming the file, the line and the rule`, () => {
    const line = plantedLine(planted, plant.file);
    assert.ok(
      checkLayers(planted).includes(`${plant.file}:${line}  ${plant.expect}`),
      `expected "${plant.file}:${line}  ${plant.expect}"`,
    );
  });
}

test('fails on a module with routes and no service', () => {
  assert.ok(
    checkLayers(planted).includes('apps/server/src/modules/orphan:0  a module with routes has no service'),
  );
});

test('the command exits non-zero and lists every planted violation, and nothing else', () => {
  const run = spawnSync(process.execPath, [SCRIPT, planted], { encoding: 'utf8' });
  assert.equal(run.status, 1);
  const listed = run.stderr.split('\n').filter((line) => line.startsWith('  '));
  assert.equal(listed.length, Object.keys(PLANTS).length + 1, run.stderr);
  assert.equal(spawnSync(process.execPath, [SCRIPT, clean]).status, 0);
});
