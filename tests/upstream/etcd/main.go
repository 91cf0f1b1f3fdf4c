// etcd for the upstream comparisons: etcd's own server binary, built from
// the go.etcd.io/etcd/server/v3 module pinned in this directory's go.mod
// (the 3.6 line kube-apiserver 1.37 is tested against). Nothing here but the
// entry point: flags and behaviour are etcd's (etcdmain.Main).
package main

import (
	"os"

	"go.etcd.io/etcd/server/v3/etcdmain"
)

func main() { etcdmain.Main(os.Args) }
