#!/usr/bin/env bash
# `npm run images`: every image the e2e suite's node container needs, built here from pinned parts with
# nothing pulled from a container registry, into the Docker engine (with-docker-engine.sh starts one
# when none answers). Work files are cached outside the work tree ($SCOBY_CACHE_DIR/images); an image
# already in the engine is skipped, except those made from the work tree (controller, workloads, node),
# which `docker build` rebuilds from its layer cache. Prints what it built or skipped, with times.
#   scoby.local/debian:bookworm          root filesystem by mmdebstrap from this machine's apt sources
#   scoby.local/debian-node:bookworm     the same with containerd, runc, iptables, CNI plugins (Debian's)
#   scoby.local/node:24.21.0             Debian + Node.js and npm from the npm registry
#   scoby.local/scoby-controller:dev     the repository's Dockerfile, NODE_IMAGE=the image above
#   scoby.local/scoby-controller:dev-plugins  + the example StatefulSet plugin (docs/operations/image.md)
#   scoby.local/greeter-env:dev, scoby.local/example-hook:dev   workloads of the real-pod scenarios
#   scoby.local/coredns:<v>, scoby.local/pause:<v>               inside the node image
#   scoby.local/kube-node:<kubernetes>   the node (e2e/images/node)
#   scoby.local/knative-<program>:<serving>  Knative Serving's controller, webhook, autoscaler, activator
#                                        and queue, from `npm run knative-binaries` on the Debian base;
#                                        only when asked (`npm run images -- knative`): the stage builds
#                                        Serving from its Go module when no prebuilt archive has it
#   scoby.local/traefik:<traefik>        the Knative tests' ingress (knative-ingress.json), the same way
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
# shellcheck source=../scripts/in-docker-engine.sh
source "$repo/e2e/scripts/in-docker-engine.sh"
cd "$repo"

NODE_VERSION=24.21.0
NPM_VERSION=11.19.1
SUITE=bookworm
NODE_PACKAGES=containerd,runc,iptables,conntrack,containernetworking-plugins,iproute2,ca-certificates,procps,kmod,busybox
release() { node -p "require('./packages/kube-control-plane/kube-release.json').$1"; }
KUBERNETES=$(release kubernetes)
COREDNS=$(release coredns)
PAUSE=$(release pause)
SERVING=$(node -p "require('./packages/kube-control-plane/knative-release.json').serving")
TRAEFIK=$(node -p "require('./packages/kube-control-plane/knative-ingress.json').traefik")
cache="${SCOBY_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/scoby}/images"
mkdir -p "$cache"
# The legacy builder on the engine's own image store: BuildKit would pull its frontend and look base
# images up in a registry; the legacy builder uses the local images as they are.
export DOCKER_BUILDKIT=0
# (its deprecation notice on every build says nothing new)
docker() { if [ "$1" = build ]; then command docker "$@" 2> >(grep -v -e DEPRECATED -e BuildKit -e environment-variable -e '^$' >&2); else command docker "$@"; fi; }

started=$SECONDS
say() { echo "images: $*" >&2; }
# An image is cached when it exists and was made from the same recipe (label scoby.recipe: the
# versions and inputs it was made from), so a changed pin or package list rebuilds it.
recipe_of() { docker image inspect -f '{{ index .Config.Labels "scoby.recipe" }}' "$1" 2>/dev/null; }
timed() {
  local what=$1 at=$SECONDS
  shift
  "$@"
  say "built $what in $((SECONDS - at)) s"
}
cached_or() {
  local image=$1
  RECIPE=$2
  shift 2
  if [ "$(recipe_of "$image")" = "$RECIPE" ]; then say "cached $image"; else timed "$image" "$@"; fi
}

# The sources this machine's apt uses (deb822 or one-line), so no mirror is named here.
apt_sources() {
  local found=()
  for file in /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources; do
    [ -s "$file" ] && found+=("$file")
  done
  [ ${#found[@]} -gt 0 ] || { say "no apt sources on this machine"; exit 1; }
  printf '%s\n' "${found[@]}"
}

rootfs_image() {
  local image=$1 tar="$cache/$2.tar" include=$3
  command -v mmdebstrap >/dev/null || { say "mmdebstrap is missing: apt-get install mmdebstrap"; exit 1; }
  local args=(--mode=root --variant=minbase --quiet)
  [ -n "$include" ] && args+=("--include=$include")
  mapfile -t sources < <(apt_sources)
  # mmdebstrap picks the output's format by its extension.
  rm -rf "$tar.partial.tar"
  mmdebstrap "${args[@]}" "$SUITE" "$tar.partial.tar" "${sources[@]}"
  mv "$tar.partial.tar" "$tar"
  docker import --change 'CMD ["/bin/bash"]' --change "LABEL scoby.recipe=\"$RECIPE\"" "$tar" "$image" >/dev/null
  rm -f "$tar"
}

node_image() {
  local context="$cache/node-$NODE_VERSION"
  rm -rf "$context" && mkdir -p "$context/usr/local/lib/node_modules" "$context/usr/local/bin"
  cp "$(scripts/node-from-npm.sh "$NODE_VERSION")/node" "$context/usr/local/bin/node"
  (cd "$context" && npm pack --silent "npm@$NPM_VERSION" >/dev/null && tar -xzf npm-*.tgz && rm npm-*.tgz &&
    mv package usr/local/lib/node_modules/npm)
  ln -s ../lib/node_modules/npm/bin/npm-cli.js "$context/usr/local/bin/npm"
  ln -s ../lib/node_modules/npm/bin/npx-cli.js "$context/usr/local/bin/npx"
  # The machine's trust store, as its apt sources: npm in a build reaches the registry the way this
  # machine does (here through an egress proxy whose CA only the machine's bundle holds).
  mkdir -p "$context/etc/ssl/certs"
  cp /etc/ssl/certs/ca-certificates.crt "$context/etc/ssl/certs/"
  cat >"$context/Dockerfile" <<DOCKERFILE
FROM scoby.local/debian:$SUITE
COPY usr/ /usr/
COPY etc/ /etc/
ENV NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt
RUN groupadd --gid 1000 node && useradd --uid 1000 --gid node --shell /bin/bash --create-home node
CMD ["node"]
DOCKERFILE
  docker build -q --label "scoby.recipe=$RECIPE" -t "scoby.local/node:$NODE_VERSION" "$context" >/dev/null
  rm -rf "$context"
}

single_binary_image() {
  local image=$1 binary=$2 entrypoint=$3 dir
  dir=$(mktemp -d)
  cp "$binary" "$dir/"
  tar -C "$dir" -cf "$dir.tar" .
  docker import --change "ENTRYPOINT [\"$entrypoint\"]" --change "LABEL scoby.recipe=\"$RECIPE\"" "$dir.tar" "$image" >/dev/null
  rm -rf "$dir" "$dir.tar"
}

# One Knative program (or Traefik) on the Debian base, where ko would have put it (/ko-app/<program>),
# as the non-root user ko's base runs as: Serving's deployments set runAsNonRoot.
knative_image() {
  local image=$1 program=$2 binary=$3 context
  context=$(mktemp -d)
  cp "$binary" "$context/$program"
  cat >"$context/Dockerfile" <<DOCKERFILE
FROM scoby.local/debian:$SUITE
COPY $program /ko-app/$program
USER 65532:65532
ENTRYPOINT ["/ko-app/$program"]
DOCKERFILE
  docker build -q --label "scoby.recipe=$RECIPE" -t "$image" "$context" >/dev/null
  rm -rf "$context"
}

esbuild_bundle() {
  node_modules/.bin/esbuild "$1" --bundle --platform=node --format=esm --target=node24 \
    --conditions=@scoby/source --log-level=warning \
    --banner:js="import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);" \
    --outfile="$2" "${@:3}"
}

# Stages, all by default: base (Debian, Node.js), controller, workloads, node; knative only when named.
stages=" ${*:-base controller workloads node} "
wants() { [[ "$stages" == *" $1 "* ]]; }

# Knative's images need the Debian base only.
if wants base || wants controller || wants workloads || wants node || wants knative; then
cached_or "scoby.local/debian:$SUITE" "$SUITE minbase" rootfs_image "scoby.local/debian:$SUITE" "debian-$SUITE" ""
fi
if wants base || wants controller || wants workloads || wants node; then
cached_or "scoby.local/debian-node:$SUITE" "$SUITE minbase $NODE_PACKAGES" rootfs_image "scoby.local/debian-node:$SUITE" "debian-node-$SUITE" "$NODE_PACKAGES"
cached_or "scoby.local/node:$NODE_VERSION" \
  "node $NODE_VERSION npm $NPM_VERSION ca $(sha256sum /etc/ssl/certs/ca-certificates.crt | cut -c1-12)" node_image
fi

# The Dockerfile's npm steps reach the registry through the host's network: the engine gives containers
# no NAT (with-docker-engine.sh).
if wants controller; then
timed scoby.local/scoby-controller:dev docker build -q --network=host \
  --build-arg "NODE_IMAGE=scoby.local/node:$NODE_VERSION" \
  --build-arg "REVISION=$(git rev-parse HEAD 2>/dev/null || echo unknown)" -t scoby.local/scoby-controller:dev . >/dev/null

fi

work="$cache/work"
rm -rf "$work" && mkdir -p "$work"
esbuild_bundle packages/formfactor-statefulset-example/src/index.ts "$work/statefulset.mjs" \
  --external:@scoby/formfactor --external:@scoby/kube-objects
esbuild_bundle apps/example-hook/src/main.ts "$work/example-hook.mjs"
cp e2e/images/workloads/greeter-env.mjs "$work/"
if wants controller; then
timed scoby.local/scoby-controller:dev-plugins docker build -q -f e2e/images/workloads/Dockerfile.controller-plugins \
  --build-arg CONTROLLER_IMAGE=scoby.local/scoby-controller:dev -t scoby.local/scoby-controller:dev-plugins "$work" >/dev/null
# The same image rebuilt (a new image ID, as a new release would be): the scenario that upgrades the chart.
timed scoby.local/scoby-controller:dev-plugins-rebuilt docker build -q -f e2e/images/workloads/Dockerfile.controller-plugins \
  --label "org.opencontainers.image.created=$(date -u +%FT%TZ)" \
  --build-arg CONTROLLER_IMAGE=scoby.local/scoby-controller:dev -t scoby.local/scoby-controller:dev-plugins-rebuilt "$work" >/dev/null
fi
if wants workloads; then
timed scoby.local/greeter-env:dev docker build -q -f e2e/images/workloads/Dockerfile.greeter-env \
  --build-arg "NODE_IMAGE=scoby.local/node:$NODE_VERSION" -t scoby.local/greeter-env:dev "$work" >/dev/null
timed scoby.local/example-hook:dev docker build -q -f e2e/images/workloads/Dockerfile.example-hook \
  --build-arg "NODE_IMAGE=scoby.local/node:$NODE_VERSION" -t scoby.local/example-hook:dev "$work" >/dev/null

fi

# The node: the control plane of kube-binaries, the node's own binaries, CoreDNS and pause.
if wants node; then
control_plane=$(npm run --silent kube-binaries | tail -n 1)
node_binaries=$(npm run --silent kube-node-binaries | tail -n 1)
cached_or "scoby.local/coredns:$COREDNS" "$(sha256sum "$node_binaries/coredns" | cut -c1-16)" single_binary_image "scoby.local/coredns:$COREDNS" "$node_binaries/coredns" /coredns
cached_or "scoby.local/pause:$PAUSE" "$(sha256sum "$node_binaries/pause" | cut -c1-16)" single_binary_image "scoby.local/pause:$PAUSE" "$node_binaries/pause" /pause
context="$cache/kube-node"
rm -rf "$context" && mkdir -p "$context/bin" "$context/etc" "$context/images"
for binary in etcd kube-apiserver kube-controller-manager kube-scheduler kubectl; do
  ln "$control_plane/$binary" "$context/bin/" 2>/dev/null || cp "$control_plane/$binary" "$context/bin/"
done
for binary in kubelet kube-proxy kubeadm; do
  ln "$node_binaries/$binary" "$context/bin/" 2>/dev/null || cp "$node_binaries/$binary" "$context/bin/"
done
cp e2e/images/node/scoby-node e2e/images/node/scoby-node-supervise "$context/bin/"
cp e2e/images/node/{containerd.toml,10-ptp.conflist,kubelet.yaml,kube-proxy.yaml,kubeadm.yaml,coredns.yaml,audit-policy.yaml} "$context/etc/"
sed -i "s/PAUSE_VERSION/$PAUSE/" "$context/etc/containerd.toml"
echo "$COREDNS" >"$context/etc/coredns-version"
docker save -o "$context/images/coredns.tar" "scoby.local/coredns:$COREDNS"
docker save -o "$context/images/pause.tar" "scoby.local/pause:$PAUSE"
timed "scoby.local/kube-node:$KUBERNETES" docker build -q -f e2e/images/node/Dockerfile \
  --build-arg "NODE_ROOT_IMAGE=scoby.local/debian-node:$SUITE" -t "scoby.local/kube-node:$KUBERNETES" "$context" >/dev/null
rm -rf "$context"
fi
rm -rf "$work"

# Knative Serving: one image per program the cache folder holds (its knative-release.json is no program);
# Traefik from its own folder (knative-binaries prints Serving's folder, then Traefik's).
if wants knative; then
{ read -r knative_binaries; read -r traefik_binaries; } < <(npm run --silent knative-binaries | tail -n 2)
for binary in "$knative_binaries"/*; do
  program=$(basename "$binary")
  [ "$program" = knative-release.json ] && continue
  cached_or "scoby.local/knative-$program:$SERVING" "$SUITE $(sha256sum "$binary" | cut -c1-16)" knative_image "scoby.local/knative-$program:$SERVING" "$program" "$binary"
done
cached_or "scoby.local/traefik:$TRAEFIK" "$SUITE $(sha256sum "$traefik_binaries/traefik" | cut -c1-16)" knative_image "scoby.local/traefik:$TRAEFIK" traefik "$traefik_binaries/traefik"
fi
say "done in $((SECONDS - started)) s"
