#!/usr/bin/env bash
# Installs Node.js <version> from the npm registry's node-<os>-<arch> package (npm checks its
# integrity) into the Scoby cache, outside the work tree, once; prints the folder of its `node`.
#   PATH="$(scripts/node-from-npm.sh 24.21.0):$PATH" npm test
# The cache is $SCOBY_CACHE_DIR, else $XDG_CACHE_HOME/scoby, else ~/.cache/scoby (as for the
# Kubernetes binaries), in node/<version>.
set -euo pipefail
version=${1:?usage: scripts/node-from-npm.sh <version>}
case "$(uname -m)" in
  x86_64) arch=x64 ;;
  aarch64 | arm64) arch=arm64 ;;
  *) echo "node-from-npm: no Node.js package for machine $(uname -m)" >&2 && exit 1 ;;
esac
os=$(uname -s | tr '[:upper:]' '[:lower:]')
folder="${SCOBY_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/scoby}/node/$version"
if [ ! -x "$folder/bin/node" ]; then
  download=$(mktemp -d)
  trap 'rm -rf "$download"' EXIT
  (cd "$download" && npm pack --silent "node-$os-$arch@$version" > /dev/null && tar -xzf ./*.tgz)
  mkdir -p "$(dirname "$folder")"
  # Moved in whole, so an interrupted download never leaves a half-filled cache folder behind.
  rm -rf "$folder.partial" && mv "$download/package" "$folder.partial" && mv "$folder.partial" "$folder"
fi
echo "$folder/bin"
