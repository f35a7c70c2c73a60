#!/usr/bin/env bash
# Probes, one by one, what the node image needs from this machine, in a privileged container of
# scoby.local/debian-node started as the node is (npm run images builds that image first), and prints
# each result: the cgroup version, /dev/kmsg, overlayfs on a volume (containerd's snapshotter), runc
# through containerd (no CAP_SYS_RESOURCE here: the node's CRI sets restrict_oom_score_adj, which only
# its pods exercise), iptables NAT, conntrack and br_netfilter; and, for the record, whether overlayfs
# stacks on the container's own overlay root (why /var/lib/containerd is a volume). Exits 1 when a
# needed probe fails, naming it and its error.
# Usage: e2e/images/probe-node-traps.sh (starts a Docker engine for the run if none answers)
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
# shellcheck source=../scripts/in-docker-engine.sh
source "$here/../scripts/in-docker-engine.sh"
image=scoby.local/debian-node:bookworm
docker image inspect "$image" >/dev/null 2>&1 || { echo "probe: $image is missing: npm run images" >&2; exit 2; }
name="scoby-probe-$$"
docker run -d --name "$name" --privileged --cgroupns=host -v /sys/fs/cgroup:/sys/fs/cgroup:rw \
  --tmpfs /run --tmpfs /var/run -v "$name:/var/lib/containerd" "$image" sleep 600 >/dev/null || exit 1
trap 'docker rm -f "$name" >/dev/null; docker volume rm "$name" >/dev/null' EXIT
failed=0
probe() {
  local what=$1 script=$2 output
  if output=$(docker exec "$name" sh -c "$script" 2>&1); then
    echo "probe: ok    $what: $(echo "$output" | tail -n 1)"
  else
    echo "probe: FAIL  $what: $(echo "$output" | tail -n 3 | tr '\n' ' ')"
    failed=1
  fi
}
probe "cgroups" 'if [ -f /sys/fs/cgroup/cgroup.controllers ]; then echo v2; else echo "v1 ($(ls /sys/fs/cgroup | tr "\n" " "))"; fi'
probe "/dev/kmsg readable (kubelet's OOM watcher)" 'test -c /dev/kmsg && timeout 1 cat /dev/kmsg >/dev/null; test -r /dev/kmsg && echo readable'
probe "overlayfs on the /var/lib/containerd volume" 'cd /var/lib/containerd && mkdir -p l u w m && mount -t overlay overlay -o lowerdir=l,upperdir=u,workdir=w m && umount m && echo mounted'
probe "containerd runs a container of its own with runc (capabilities within the bounding set)" '
  (containerd >/tmp/containerd.log 2>&1 &) ; for i in $(seq 1 40); do ctr version >/dev/null 2>&1 && break; sleep 0.25; done
  mkdir -p /tmp/rootfs && cp --parents /bin/busybox $(ldd /bin/busybox | grep -o "/[^ ]*") /tmp/rootfs/ &&
  ctr -n probe run --rm --rootfs /tmp/rootfs probe /bin/busybox echo ran in a container of its own'
probe "iptables NAT (kube-proxy's DNAT)" 'iptables -t nat -N PROBE && iptables -t nat -A PROBE -p tcp -d 10.96.0.1 --dport 443 -j DNAT --to-destination 127.0.0.1:6443 && iptables -t nat -S PROBE | tail -n 1'
probe "conntrack" 'conntrack -L >/dev/null 2>&1; conntrack -C'
probe "br_netfilter" 'sysctl -w net.bridge.bridge-nf-call-iptables=1'
probe "ip_forward in the node's network namespace" 'sysctl -w net.ipv4.ip_forward=1'
overlay_on_root=$(docker exec "$name" sh -c 'cd /tmp && mkdir -p l u w m && mount -t overlay overlay -o lowerdir=l,upperdir=u,workdir=w m && umount m && echo mounts' 2>&1 | tail -n 1)
echo "probe: note  overlayfs on the container's own overlay root: $overlay_on_root"
exit $failed
