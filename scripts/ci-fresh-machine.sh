#!/usr/bin/env bash
# CI as a fresh machine runs it: `.ci/run` on a clean clone of the current commit with every cache
# cold and apart from the machine's warm ones, which it neither reads nor changes:
#   SCOBY_CACHE_DIR          Node, the Kubernetes binaries, helm, image work files
#   GOCACHE, GOMODCACHE      Go's build cache and module cache (GOPATH too)
#   npm_config_cache         npm's package cache
#   TMPDIR                   tsx's transform cache and every suite's scratch files
#   SCOBY_DOCKER_ENGINE_DIR  a Docker engine of its own (with-docker-engine.sh): its socket, images,
#                            state and a bridge of its own, beside the machine's engine
# The team's prebuilt archives (../shared/prebuilt) are read where the repository has them, as on a CI
# machine. Debian packages already installed stay installed (apt-get is the machine's). Prints each CI stage's
# time with the load average at its end, and the total; the log and the caches stay in the folder.
# Usage: scripts/ci-fresh-machine.sh [folder]   (default /tmp/scoby-fresh; it must not exist)
set -euo pipefail
repository="$(cd "$(dirname "$0")/.." && pwd)"
folder="${1:-/tmp/scoby-fresh}"
if [ -e "$folder" ]; then
  echo "ci-fresh-machine: $folder exists; give a new folder (its caches would not be cold)" >&2
  exit 2
fi
mkdir -p "$folder"/{cache,go/build,go/mod,go/path,npm,tmp,docker}
folder="$(cd "$folder" && pwd)"
commit="$(git -C "$repository" rev-parse HEAD)"
git clone --quiet --no-local --no-checkout "$repository" "$folder/clone"
# A fresh CI machine has the team's prebuilt archives beside its clone (docs/operations/prebuilt-binaries.md):
# so does this one when the repository has them beside it. SCOBY_PREBUILT_DIR= runs without them.
if [ -d "$repository/../shared/prebuilt" ]; then
  mkdir -p "$folder/shared"
  ln -s "$(cd "$repository/../shared/prebuilt" && pwd)" "$folder/shared/prebuilt"
fi
git -C "$folder/clone" checkout --quiet --detach "$commit"

log="$folder/ci.log"
load="$folder/load.log"
say() { echo "ci-fresh-machine: $*" | tee -a "$log" >&2; }
say "commit $commit in $folder/clone; load at start: $(cut -d' ' -f1-3 /proc/loadavg)"

# The load average each minute, for the figures' context (the machine may be shared).
(
  while :; do
    echo "$(date -u +%T) $(cut -d' ' -f1-3 /proc/loadavg)" >>"$load"
    sleep 60
  done
) &
sampler=$!
trap 'kill "$sampler" 2>/dev/null || true' EXIT

started=$SECONDS
set +e
(
  cd "$folder/clone"
  export SCOBY_CACHE_DIR="$folder/cache/scoby" XDG_CACHE_HOME="$folder/cache"
  export GOCACHE="$folder/go/build" GOMODCACHE="$folder/go/mod" GOPATH="$folder/go/path"
  GOFLAGS="$(go env GOFLAGS) -modcacherw"
  export GOFLAGS="${GOFLAGS# }"
  export npm_config_cache="$folder/npm" TMPDIR="$folder/tmp"
  export SCOBY_DOCKER_ENGINE_DIR="$folder/docker"
  unset DOCKER_HOST
  .ci/run
) 2>&1 | while IFS= read -r line; do
  printf '%s\n' "$line" >>"$log"
  case "$line" in
    "ci: "*" done after "*) say "${line#ci: } (load $(cut -d' ' -f1-3 /proc/loadavg))" ;;
  esac
done
status=${PIPESTATUS[0]}
set -e
say ".ci/run exited $status after $((SECONDS - started)) s ($(((SECONDS - started) / 60)) min); load at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
say "log $log, load each minute $load; cold caches in $folder (remove with: chmod -R u+w $folder && rm -rf $folder)"
exit "$status"
