#!/usr/bin/env bash
# The release's image step, rehearsed where the Docker engine runs (the node stage of .ci/run): the
# controller image (`npm run images -- base controller`, cached) is pushed to a local OCI registry
# (CNCF Distribution, `npm run oci-registry`) on a loopback port, its manifest digest is read back from
# the registry, and recorded in a copy of the chart (values.yaml: image.repository, image.digest),
# which helm renders as repository@digest and packages.
# Usage: push-controller-image.sh [--if-possible]
#   --if-possible (CI): when no Docker engine can be started here, print why and exit 0.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"

# shellcheck source=in-docker-engine.sh
source "$here/in-docker-engine.sh"
[ "${1:-}" = --if-possible ] && shift
cd "$here/../.."

say() { echo "push-controller-image: $*" >&2; }
fail() {
  say "$*"
  exit 1
}

npm run images -- base controller
registry_binary="$(npm run -s oci-registry | tail -n 1)"
helm="${SCOBY_CACHE_DIR:-$HOME/.cache/scoby}/helm/$(node -p 'require("./packages/kube-control-plane/kube-release.json").helm')/helm"
[ -x "$helm" ] || fail "helm is not built ($helm is missing): run npm run kube-binaries"
version="$(node -p 'require("./apps/controller/package.json").version')"

work="$(mktemp -d)"
port="$(node -e 'const s = require("node:net").createServer().listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); })')"
cat >"$work/config.yml" <<CONFIG
version: 0.1
log: {level: error, accesslog: {disabled: true}}
storage: {filesystem: {rootdirectory: "$work/storage"}}
http: {addr: "127.0.0.1:$port"}
CONFIG
"$registry_binary" serve "$work/config.yml" &
registry_pid=$!
image="127.0.0.1:$port/scoby-controller"
cleanup() {
  kill "$registry_pid" 2>/dev/null || true
  wait "$registry_pid" 2>/dev/null || true
  docker image rm "$image:$version" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT
for _ in $(seq 100); do
  curl -fsS "http://127.0.0.1:$port/v2/" >/dev/null 2>&1 && break
  kill -0 "$registry_pid" 2>/dev/null || fail "the registry exited before it answered"
  sleep 0.1
done

# The engine treats a registry on 127.0.0.0/8 as insecure (plain HTTP) without configuration.
docker tag scoby.local/scoby-controller:dev "$image:$version"
docker push -q "$image:$version" >/dev/null
accept='application/vnd.oci.image.index.v1+json, application/vnd.oci.image.manifest.v1+json, application/vnd.docker.distribution.manifest.list.v2+json, application/vnd.docker.distribution.manifest.v2+json'
digest="$(curl -fsS -I -H "Accept: $accept" "http://127.0.0.1:$port/v2/scoby-controller/manifests/$version" |
  tr -d '\r' | awk -F': ' 'tolower($1) == "docker-content-digest" { print $2 }')"
[[ "$digest" =~ ^sha256:[0-9a-f]{64}$ ]] || fail "the registry named no manifest digest for $image:$version (got '$digest')"
curl -fsS -o /dev/null -H "Accept: $accept" "http://127.0.0.1:$port/v2/scoby-controller/manifests/$digest" ||
  fail "the registry does not serve $image@$digest"

# The chart with the digest recorded: the generated values.yaml names the repository and an empty digest.
cp -r deploy/helm/scoby "$work/chart"
sed -i -e "s|^  repository: scoby-controller\$|  repository: $image|" -e "s|^  digest: \"\"\$|  digest: \"$digest\"|" \
  "$work/chart/values.yaml"
grep -qx "  repository: $image" "$work/chart/values.yaml" || fail "values.yaml has no image.repository line to set"
grep -qx "  digest: \"$digest\"" "$work/chart/values.yaml" || fail "values.yaml has no image.digest line to set"
rendered="$("$helm" template scoby "$work/chart" --namespace scoby-system | sed -n 's/^ *image: //p')"
[ "$rendered" = "\"$image@$digest\"" ] || fail "the chart renders image: $rendered, not \"$image@$digest\""
"$helm" package "$work/chart" -d "$work" >/dev/null
say "pushed $image:$version; manifest digest $digest recorded in the chart's image.digest; helm renders image: $image@$digest"
