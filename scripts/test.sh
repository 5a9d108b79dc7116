#!/usr/bin/env bash
# npm test: every check, in order of cost. CI runs this same script through .ci/run.
set -euo pipefail
cd "$(dirname "$0")/.."
export TZ=UTC

echo "== Node (the node devDependency, whatever the machine has)"
node scripts/check-node-version.mjs

echo "== lint (Biome)"
npx biome ci --error-on-warnings .

echo "== types (tsc strict, one project per workspace: the domain without Node or the DOM, the web app without Node)"
npm run --silent typecheck

echo "== layering (routes → own service → repository; SQL in repositories; web one-way; no import cycles)"
node --test scripts/check-layers.test.mjs >/dev/null
node scripts/check-layers.mjs

echo "== library internals (public APIs only: no private members, no library prototypes)"
node --test scripts/check-private-members.test.mjs >/dev/null
node scripts/check-private-members.mjs

echo "== unit and API tests"
# With TEST_DATABASE_URL set, a PostgreSQL that cannot be reached fails the run (checked on loopback ports).
node --test --test-reporter=dot scripts/test-database-url.test.mjs
projects=(--project domain --project web --project api-pglite)
if [ -n "${TEST_DATABASE_URL:-}" ]; then
  projects+=(--project api-pg)
else
  echo "(TEST_DATABASE_URL not set: the API suite runs on PGlite only)"
fi
# Two workers, not Vitest's default of one per CPU but one: the files wait on PostgreSQL and PGlite as much
# as they compute, and two cut the suite from 22 to 15 minutes on the 2-CPU machine.
npx vitest run "${projects[@]}" --maxWorkers=2

echo "== API soak tests (real time: servers killed, SMTP and PostgreSQL outages; one file at a time)"
# On PostgreSQL, one of them puts PgBouncer (Debian's) in front of it: Parley must refuse a pooler in
# transaction mode.
if [ -n "${TEST_DATABASE_URL:-}" ] && [ ! -x /usr/sbin/pgbouncer ]; then
  if [ "$(id -u)" = "0" ]; then
    apt-get update -qq && apt-get install -y -qq pgbouncer >/dev/null
  else
    echo "PgBouncer is missing: install it with 'apt-get install -y pgbouncer'" >&2
    exit 1
  fi
fi
# Apart from the rest and one at a time, so that no other test's load bends their timings.
npx vitest run --project api-soak --maxWorkers=1

echo "== district scale bench, small size (issue 39: prints each call's figures; fails on a wrong answer)"
if [ -n "${TEST_DATABASE_URL:-}" ]; then
  BENCH_DATABASE_URL="$TEST_DATABASE_URL" SCALE=small BENCH_RUNS=5 npm run --silent bench:scale
else
  echo "(TEST_DATABASE_URL not set: the scale bench needs PostgreSQL; skipped)"
fi

echo "== build the web app"
npx vite build --config apps/web/vite.config.ts --logLevel warn

echo "== web bundle budget (gzipped JS per page)"
node --test scripts/check-bundle-budget.test.mjs >/dev/null
node scripts/check-bundle-budget.mjs

echo "== native projects (Capacitor sync, offline)"
(cd apps/mobile && npx cap sync)

echo "== production build (the image's runtime stage; the image itself where Docker runs)"
bash scripts/check-production.sh

echo "== browser journeys (Chromium)"
if ! command -v chromium >/dev/null 2>&1; then
  if [ "$(id -u)" = "0" ]; then
    apt-get update -qq && apt-get install -y -qq chromium >/dev/null
  else
    echo "Chromium is missing: install it with 'apt-get install -y chromium'" >&2
    exit 1
  fi
fi
# Two files at a time against the one server (each journey makes its own school): the browsers wait on the
# server as much as they draw. The timed journeys after, alone.
npx vitest run --project e2e --maxWorkers=2
npx vitest run --project e2e-timed --maxWorkers=1
