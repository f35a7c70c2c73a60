#!/usr/bin/env bash
# The acceptance suite on k3s in a container: `E2E_CLUSTER=k3s npm run e2e -w @scoby/e2e` with a Docker
# engine started for the run where none answers (with-docker-engine.sh). The image is K3S_IMAGE, else
# the suite's default (DEFAULT_K3S_IMAGE in src/settings.ts); the engine pulls it when it is missing.
# Usage: e2e-k3s.sh [--if-possible]
#   --if-possible (CI): when no engine can be started, or the image is not in the engine already (these
#   machines reach no container registry, so nothing is pulled), print why and exit 0.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"

# shellcheck source=in-docker-engine.sh
source "$here/in-docker-engine.sh"
cd "$here/.."

say() { echo "e2e-k3s: $*" >&2; }
image="${K3S_IMAGE:-$(node --conditions=@scoby/source --import tsx -e "import('./src/settings.ts').then((m) => console.log(m.DEFAULT_K3S_IMAGE))")}"
if ! docker image inspect "$image" >/dev/null 2>&1; then
  if [ ${#if_possible[@]} -gt 0 ]; then
    say "skipped: the k3s image $image is not in the Docker engine (load one with docker load, or set K3S_IMAGE; see e2e/README.md)"
    exit 0
  fi
  say "$image is not in the Docker engine: the suite asks the engine to pull it"
fi
# testcontainers' reaper is an image too; without it the suite still stops its container, and an
# engine started by with-docker-engine.sh stops every container with it.
reaper_js="$(dirname "$(node -p "require.resolve('testcontainers')")")/reaper/reaper.js"
reaper="$(grep -o 'testcontainers/ryuk:[0-9.]*' "$reaper_js" | head -n 1)"
if [ -z "${TESTCONTAINERS_RYUK_DISABLED:-}" ] && ! docker image inspect "$reaper" >/dev/null 2>&1; then
  export TESTCONTAINERS_RYUK_DISABLED=true
  say "$reaper is not in the engine: testcontainers' reaper is off (TESTCONTAINERS_RYUK_DISABLED=true)"
fi
say "E2E_CLUSTER=k3s K3S_IMAGE=$image (load $(cut -d' ' -f1-3 /proc/loadavg))"
E2E_CLUSTER=k3s K3S_IMAGE="$image" npm run e2e
