#!/usr/bin/env bash
# Runs a command with a Docker engine answering on /var/run/docker.sock (where testcontainers and the
# docker CLI look). When none answers, starts Debian's dockerd (package docker.io) for the command's
# duration and stops it afterwards; an engine that already answers is used as it is and left running.
# The engine it starts keeps every packet on this machine:
#   --iptables=false --ip6tables=false  no NAT or forwarding rules: containers get no way out
#   --ip-forward=false                  the host does not route containers' packets (it keeps 0)
#   --ip=127.0.0.1                      published ports listen on loopback only (docker-proxy)
# Where this shell's capability bounding set lacks capabilities (CAP_SYS_RESOURCE in these sandboxes),
# --privileged containers, which k3s needs, fail in runc ("unable to apply caps: operation not
# permitted"); the engine then runs containers through runc-in-bounding-set.sh, which leaves those out.
# SCOBY_DOCKER_ENGINE_DIR=<folder> gives the command an engine of its own beside any other: its socket
# (DOCKER_HOST=unix://<folder>/docker.sock, exported for the command), data, exec state and pid file
# under <folder>, and a bridge of its own (SCOBY_DOCKER_BRIDGE, default scoby-engine0, on
# SCOBY_DOCKER_BRIDGE_CIDR, default 172.29.0.1/16), made for the engine and removed with it. A cold
# engine for scripts/ci-fresh-machine.sh, while the machine's own engine keeps its images.
# Usage: with-docker-engine.sh [--if-possible] command [args...]
#   --if-possible: when no engine can be started, print why and exit 0 without running the command.
# Exits 3 when no engine can be started (without --if-possible), else with the command's status.
set -uo pipefail

if_possible=false
if [ "${1:-}" = "--if-possible" ]; then
  if_possible=true
  shift
fi
if [ $# -eq 0 ]; then
  echo "usage: $0 [--if-possible] command [args...]" >&2
  exit 2
fi

say() { echo "with-docker-engine: $*" >&2; }

unavailable() {
  if $if_possible; then
    say "skipped: $1"
    exit 0
  fi
  say "$1"
  exit 3
}

engine_dir="${SCOBY_DOCKER_ENGINE_DIR:-}"
if [ -n "$engine_dir" ]; then
  mkdir -p "$engine_dir"
  engine_dir="$(cd "$engine_dir" && pwd)"
  export DOCKER_HOST="unix://$engine_dir/docker.sock"
fi

engine_answers() { docker version --format '{{.Server.Version}}' >/dev/null 2>&1; }

# Published ports on loopback only (--ip=127.0.0.1, as the engine started below): testcontainers would
# look for them at the bridge's gateway wherever /.dockerenv exists (as on these machines).
loopback_ports() {
  if [ "$(docker network inspect bridge --format '{{index .Options "com.docker.network.bridge.host_binding_ipv4"}}' 2>/dev/null)" = 127.0.0.1 ]; then
    export TESTCONTAINERS_HOST_OVERRIDE="${TESTCONTAINERS_HOST_OVERRIDE:-127.0.0.1}"
  fi
}

if engine_answers; then
  say "using the Docker engine that is already running"
  loopback_ports
  "$@"
  exit $?
fi

command -v docker >/dev/null 2>&1 || unavailable "no docker CLI; install Debian's docker.io (apt-get install docker.io)"
command -v dockerd >/dev/null 2>&1 || unavailable "no Docker engine answers and dockerd is not installed; install Debian's docker.io (apt-get install docker.io)"
[ "$(id -u)" = 0 ] || unavailable "no Docker engine answers and starting dockerd needs root"

log_dir="${SCOBY_CACHE_DIR:-$HOME/.cache/scoby}/docker"
[ -n "$engine_dir" ] && log_dir="$engine_dir"
mkdir -p "$log_dir"
log="$log_dir/dockerd.log"
engine_options=(--iptables=false --ip6tables=false --ip-forward=false --ip=127.0.0.1)
bridge=""
if [ -n "$engine_dir" ]; then
  bridge="${SCOBY_DOCKER_BRIDGE:-scoby-engine0}"
  if ! ip link show "$bridge" >/dev/null 2>&1; then
    ip link add name "$bridge" type bridge &&
      ip addr add "${SCOBY_DOCKER_BRIDGE_CIDR:-172.29.0.1/16}" dev "$bridge" &&
      ip link set "$bridge" up || unavailable "cannot make the bridge $bridge for the engine in $engine_dir"
  fi
  engine_options+=(-H "$DOCKER_HOST" --data-root "$engine_dir/data" --exec-root "$engine_dir/exec"
    --pidfile "$engine_dir/docker.pid" --bridge "$bridge")
fi
bounding=$((16#$(awk '/^CapBnd:/ { print $2 }' /proc/self/status)))
every_capability=$(((1 << ($(cat /proc/sys/kernel/cap_last_cap) + 1)) - 1))
if [ $((bounding & every_capability)) -ne "$every_capability" ]; then
  runtime="$(cd "$(dirname "$0")" && pwd)/runc-in-bounding-set.sh"
  engine_options+=(--add-runtime "scoby-runc=$runtime" --default-runtime scoby-runc)
  say "capabilities lack from the bounding set ($(printf '%x' "$bounding")): containers run through $runtime"
fi
started=$(date +%s%N)
dockerd "${engine_options[@]}" >"$log" 2>&1 &
dockerd_pid=$!

remove_bridge() {
  if [ -n "$bridge" ]; then ip link delete "$bridge" 2>/dev/null; fi
  return 0
}

stop_engine() {
  if kill -TERM "$dockerd_pid" 2>/dev/null; then
    for _ in $(seq 1 60); do
      kill -0 "$dockerd_pid" 2>/dev/null || break
      sleep 0.5
    done
    kill -0 "$dockerd_pid" 2>/dev/null && kill -KILL "$dockerd_pid" 2>/dev/null
    wait "$dockerd_pid" 2>/dev/null
    say "stopped dockerd (pid $dockerd_pid)"
  fi
  remove_bridge
}
trap stop_engine EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

for _ in $(seq 1 120); do
  engine_answers && break
  if ! kill -0 "$dockerd_pid" 2>/dev/null; then
    trap - EXIT
    remove_bridge
    unavailable "dockerd exited at start: $(tail -n 3 "$log" | tr '\n' ' ')(log: $log)"
  fi
  sleep 0.5
done
engine_answers || unavailable "dockerd did not answer within 60 s (log: $log)"
say "started dockerd (pid $dockerd_pid, loopback only, ${DOCKER_HOST:-unix:///var/run/docker.sock}, log $log) in $((($(date +%s%N) - started) / 1000000)) ms"
loopback_ports

"$@"
