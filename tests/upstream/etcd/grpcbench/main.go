// grpcbench: the gRPC side of dra's choice of etcd client (README, "dra
// serve on etcd"): the same workload as bench/bench_etcd.c, through etcd's
// own Go client over gRPC: N create-if-absent transactions of a ~1 KB value
// from one goroutine, then the latency from sending each of 200 puts to its
// watch event. Usage: grpcbench ETCD-URL [N=1000].
package main

import (
	"context"
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"
)

const watchedPuts = 200

func create(ctx context.Context, c *clientv3.Client, key, value string) {
	_, err := c.Txn(ctx).If(clientv3.Compare(clientv3.CreateRevision(key), "=", 0)).
		Then(clientv3.OpPut(key, value)).Commit()
	if err != nil {
		fmt.Fprintln(os.Stderr, "grpcbench:", err)
		os.Exit(1)
	}
}

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: grpcbench ETCD-URL [N]")
		os.Exit(2)
	}
	n := 1000
	if len(os.Args) > 2 {
		n, _ = strconv.Atoi(os.Args[2])
	}
	c, err := clientv3.New(clientv3.Config{Endpoints: []string{os.Args[1]}, DialTimeout: 5 * time.Second})
	if err != nil {
		fmt.Fprintln(os.Stderr, "grpcbench:", err)
		os.Exit(1)
	}
	defer c.Close()
	ctx := context.Background()
	value := strings.Repeat("x", 1023)
	run := time.Now().Unix()
	start := time.Now()
	for i := 0; i < n; i++ {
		create(ctx, c, fmt.Sprintf("/grpcbench/%d/%d", run, i), value)
	}
	took := time.Since(start)
	fmt.Printf("puts: %d transactions from one goroutine in %.0f ms: %.0f/s\n", n,
		float64(took.Microseconds())/1e3, float64(n)/took.Seconds())

	wctx, cancel := context.WithCancel(ctx)
	defer cancel()
	prefix := fmt.Sprintf("/grpcbench/w/%d/", run)
	events := c.Watch(clientv3.WithRequireLeader(wctx), prefix, clientv3.WithPrefix(), clientv3.WithCreatedNotify())
	<-events // created
	lat := make([]float64, watchedPuts)
	for i := 0; i < watchedPuts; i++ {
		sent := time.Now()
		create(ctx, c, fmt.Sprintf("%s%d", prefix, i), value)
		<-events
		lat[i] = float64(time.Since(sent).Microseconds()) / 1e3
	}
	sort.Float64s(lat)
	fmt.Printf("watch: put sent to event received, %d puts: median %.2f ms, p99 %.2f ms\n", watchedPuts,
		lat[watchedPuts/2], lat[watchedPuts*99/100])
}
