# Sourced first thing by a script that needs a Docker engine (e2e-node.sh, e2e-k3s.sh, the scripts of
# e2e/images): runs the script again under with-docker-engine.sh, which starts an engine for the run
# where none answers and stops it afterwards. A first argument --if-possible is handed on (when no
# engine can be started, say why and exit 0) and left in if_possible for the script; the script's
# arguments stay as they are.
#   source "$(dirname "$0")/in-docker-engine.sh"
if_possible=()
if [ "${1:-}" = "--if-possible" ]; then
  if_possible=(--if-possible)
fi
in_docker_engine_self="$(cd "$(dirname "$0")" && pwd)/$(basename "$0")"
if [ "${SCOBY_IN_DOCKER_ENGINE:-}" != "$in_docker_engine_self" ]; then
  SCOBY_IN_DOCKER_ENGINE="$in_docker_engine_self" exec "$(dirname "${BASH_SOURCE[0]}")/with-docker-engine.sh" \
    "${if_possible[@]}" "$in_docker_engine_self" "$@"
fi
