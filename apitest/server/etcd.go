package server

import (
	"context"
	"fmt"
	"io"
	"net/url"
	"path/filepath"

	"go.etcd.io/etcd/server/v3/embed"
)

// loopbackAnyPort is the listen address of every socket the server opens:
// the IPv4 loopback interface with a port chosen by the kernel.
const loopbackAnyPort = "127.0.0.1:0"

// startEtcd starts a single-member etcd whose data lives in dir and whose
// client and peer sockets listen on loopback ports chosen by the kernel.
// It returns once etcd serves clients, together with the client URL.
//
// etcd binds port 0 and reports the real address through its listeners, so
// the advertised URLs still say port 0. Nothing reads them: a single member
// never contacts a peer, and the gRPC gateway, which would dial the
// advertised client address, is switched off.
func startEtcd(ctx context.Context, dir string, logs io.Writer, verbose bool) (*embed.Etcd, string, error) {
	anyPort := url.URL{Scheme: "http", Host: loopbackAnyPort}

	cfg := embed.NewConfig()
	cfg.Name = "apitest"
	cfg.Dir = filepath.Join(dir, "etcd")
	cfg.ListenClientUrls = []url.URL{anyPort}
	cfg.AdvertiseClientUrls = []url.URL{anyPort}
	cfg.ListenPeerUrls = []url.URL{anyPort}
	cfg.AdvertisePeerUrls = []url.URL{anyPort}
	cfg.InitialCluster = cfg.InitialClusterFromName(cfg.Name)
	cfg.EnableGRPCGateway = false
	// The data is thrown away with the directory: durability buys nothing,
	// and fsync is the slowest part of every write on a loaded CI machine.
	cfg.UnsafeNoFsync = true
	cfg.ZapLoggerBuilder = embed.NewZapLoggerBuilder(etcdLogger(logs, verbose))

	e, err := embed.StartEtcd(cfg)
	if err != nil {
		return nil, "", fmt.Errorf("starting etcd: %w", err)
	}
	select {
	case <-e.Server.ReadyNotify():
	case err := <-e.Err():
		e.Close()
		return nil, "", fmt.Errorf("etcd failed while starting: %w", err)
	case <-ctx.Done():
		e.Close()
		return nil, "", fmt.Errorf("waiting for etcd to become ready: %w", context.Cause(ctx))
	}
	if len(e.Clients) == 0 {
		e.Close()
		return nil, "", fmt.Errorf("etcd started without a client listener")
	}
	clientURL := url.URL{Scheme: "http", Host: e.Clients[0].Addr().String()}
	return e, clientURL.String(), nil
}
