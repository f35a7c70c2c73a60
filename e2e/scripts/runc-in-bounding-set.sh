#!/usr/bin/env bash
# dockerd's runtime where the capability bounding set lacks capabilities (see with-docker-engine.sh):
# runc, once the capabilities no process here can hold are removed from the spec it is given. exec keeps
# every file descriptor the shim hands runc.
node "$(dirname "$0")/drop-unavailable-capabilities.mjs" "$@" || exit 1
exec runc "$@"
