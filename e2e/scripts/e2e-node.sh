#!/usr/bin/env bash
# The acceptance suite and the real-pod scenarios on the node container: builds the images
# (`npm run images`, cached) and runs `E2E_CLUSTER=node npm run e2e` with a Docker engine started for
# the run where none answers (with-docker-engine.sh). Prints the time of each step.
# Usage: e2e-node.sh [--if-possible] [vitest arguments...]
#   --if-possible (CI): when no Docker engine can be started here, print why and exit 0. Everything
#   else (an image that does not build, a node that does not start, a failing scenario) fails.
#   vitest arguments choose scenarios, relative to e2e/: e.g. `test/node-faults/` or
#   `test/node/controller-pods.test.ts -t failover` (the node starts and the chart installs either way).
# E2E_KNATIVE=1: Knative Serving's and Traefik's images too (`npm run images -- knative`) and the Knative
#   manifest (`npm run knative-manifest`); the node installs them before Scoby (test/node-knative).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"

# shellcheck source=in-docker-engine.sh
source "$here/in-docker-engine.sh"
[ "${1:-}" = --if-possible ] && shift
cd "$here/../.."

say() { echo "e2e-node: $*" >&2; }
started=$SECONDS
npm run images
if [ "${E2E_KNATIVE:-0}" = 1 ]; then
  npm run images -- knative
  npm run --silent knative-manifest >/dev/null
fi
say "images ready after $((SECONDS - started)) s"
# testcontainers' reaper is an image too, and none can be pulled: the suite stops its container itself.
export TESTCONTAINERS_RYUK_DISABLED="${TESTCONTAINERS_RYUK_DISABLED:-true}"
suite=$SECONDS
E2E_CLUSTER=node npm run e2e -w @scoby/e2e -- "$@"
say "suite on the node container passed in $((SECONDS - suite)) s (all: $((SECONDS - started)) s)"
