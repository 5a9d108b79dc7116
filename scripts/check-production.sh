#!/usr/bin/env bash
# The production image's runtime stage, checked without Docker (CI has no Docker daemon and no registry
# for base images): the build of `npm run build`, production dependencies only (npm ci --omit=dev, as the
# Dockerfile runs it) in an empty directory, then the server started with NODE_ENV=production must be
# ready, serve the app and the API, and find the database migrated. With a Docker daemon, the image
# itself is built and its health check awaited as well.
set -euo pipefail
cd "$(dirname "$0")/.."

node scripts/build-server.mjs
work="$(mktemp -d)"
data="$(mktemp -d)"
trap 'kill "${server_pid:-0}" 2>/dev/null || true; rm -rf "$work" "$data"' EXIT

for manifest in package.json package-lock.json apps/server/package.json apps/web/package.json \
  packages/domain/package.json e2e/package.json; do
  mkdir -p "$work/$(dirname "$manifest")"
  cp "$manifest" "$work/$manifest"
done
(cd "$work" && npm ci --omit=dev --no-audit --no-fund --loglevel=error -w apps/server -w packages/domain >/dev/null)
for tool in tsx vite typescript react @mui esbuild; do
  if [ -e "$work/node_modules/$tool" ]; then echo "production install holds a dev tool: $tool" >&2; exit 1; fi
done
mkdir -p "$work/apps/server" "$work/apps/web" "$work/scripts"
cp -r apps/server/dist "$work/apps/server/dist"
cp -r apps/web/dist "$work/apps/web/dist"
cp scripts/start.mjs "$work/scripts/start.mjs"

port="$(node -e "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")"
# The image's own NODE_OPTIONS (its heap ceiling, decision 036), as its runtime stage sets them.
node_options="$(sed -n 's/^ENV .*NODE_OPTIONS=\([^ ]*\).*/\1/p' Dockerfile)"
export NODE_OPTIONS="$node_options" NODE_ENV=production PORT="$port" HOST=127.0.0.1 DATA_DIR="$data" DATABASE_URL= \
  SMTP_URL=smtp://127.0.0.1:9 DATA_ENCRYPTION_KEY="$(node -e "console.log(require('crypto').randomBytes(32).toString('base64'))")" \
  LOG_LEVEL=warn
(cd "$work" && exec node scripts/start.mjs) &
server_pid=$!
base="http://127.0.0.1:$port"
for _ in $(seq 1 120); do
  if curl -sf "$base/api/ready" >/dev/null; then break; fi
  sleep 0.5
done
curl -sf "$base/api/ready" | grep -q '"ready"' || { echo "the production server never became ready" >&2; exit 1; }
curl -sf "$base/" | grep -q '<div id="root">' || { echo "the production server does not serve the app" >&2; exit 1; }
curl -sf "$base/api/site/config" | grep -q '"devMailbox":false' || { echo "production runs a dev mailbox" >&2; exit 1; }
# The deploy step as the README gives it: npm run migrate, on the production install.
(cd "$work" && npm run --silent migrate) | grep -q 'up to date' || { echo "npm run migrate failed or found work after start" >&2; exit 1; }
echo "production runtime: ready on the built server and app with production dependencies only"

if docker info >/dev/null 2>&1; then
  docker build -q -t parley:check . >/dev/null
  echo "docker image built: parley:check"
else
  echo "docker image not built: no Docker daemon here (the runtime stage above is what it runs)"
fi
