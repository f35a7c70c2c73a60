// CoreDNS with only the plugins a cluster's DNS needs (the kubeadm Corefile's, less prometheus and
// reload): the import list replaces CoreDNS's generated plugin list, the directive order is the one of
// CoreDNS's plugin.cfg.
package main

import (
	"github.com/coredns/coredns/core/dnsserver"
	"github.com/coredns/coredns/coremain"

	_ "github.com/coredns/coredns/plugin/cache"
	_ "github.com/coredns/coredns/plugin/errors"
	_ "github.com/coredns/coredns/plugin/forward"
	_ "github.com/coredns/coredns/plugin/health"
	_ "github.com/coredns/coredns/plugin/kubernetes"
	_ "github.com/coredns/coredns/plugin/loop"
	_ "github.com/coredns/coredns/plugin/ready"
)

func init() {
	dnsserver.Directives = []string{"ready", "health", "errors", "cache", "kubernetes", "loop", "forward"}
}

func main() {
	coremain.Run()
}
