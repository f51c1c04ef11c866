package server

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"path/filepath"

	oteltrace "go.opentelemetry.io/otel/trace"
	extensionsapiserver "k8s.io/apiextensions-apiserver/pkg/apiserver"
	"k8s.io/apiextensions-apiserver/pkg/cmd/server/options"
	generatedopenapi "k8s.io/apiextensions-apiserver/pkg/generated/openapi"
	"k8s.io/apiserver/pkg/authentication/authenticator"
	"k8s.io/apiserver/pkg/authentication/user"
	"k8s.io/apiserver/pkg/authorization/authorizerfactory"
	openapinamer "k8s.io/apiserver/pkg/endpoints/openapi"
	genericapiserver "k8s.io/apiserver/pkg/server"
	"k8s.io/apiserver/pkg/util/openapi"
	"k8s.io/apiserver/pkg/util/webhook"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
)

// apiserverConfig describes the API server to build.
type apiserverConfig struct {
	listener   net.Listener // pre-bound loopback listener for HTTPS
	certDir    string       // where the self-signed serving certificate goes
	etcdURL    string       // client URL of the embedded etcd
	etcdPrefix string       // key prefix of everything this server stores
	logs       io.Writer    // destination of the server's own output
}

// newAPIExtensionsServer turns the apiextensions-apiserver's own options
// into a server that needs nothing but etcd.
//
// A stand-alone apiextensions-apiserver normally delegates authentication,
// authorization and admission to a kube-apiserver and watches some core
// resources (Services, for conversion webhooks) there. This server has no
// kube-apiserver, so it
//
//   - accepts only the loopback bearer token (every other request is
//     unauthenticated and rejected) and authorizes only the privileged
//     group that token carries;
//   - runs no admission plugins: the default ones (namespace lifecycle,
//     webhooks, admission policies) all need the core API, and custom
//     resources are validated by their schema and CEL rules in the storage
//     strategy, not by admission. Objects may therefore be created in a
//     namespace such as "default" that exists nowhere;
//   - has no core-API informers, so /readyz has no informer-sync check to
//     wait for, and conversion webhooks that name a Service fail to resolve;
//   - turns off API priority and fairness, which needs the core API too.
//
// The assembly below mirrors options.CustomResourceDefinitionsServerOptions
// .Config, which cannot be used as it is because it insists on the core-API
// informer.
func newAPIExtensionsServer(c apiserverConfig) (*extensionsapiserver.CustomResourceDefinitions, error) {
	o := options.NewCustomResourceDefinitionsServerOptions(c.logs, c.logs)

	rec := o.RecommendedOptions
	rec.Authentication = nil
	rec.Authorization = nil
	rec.CoreAPI = nil
	rec.Admission = nil
	rec.Features.EnablePriorityAndFairness = false
	rec.Features.EnableProfiling = false

	rec.Etcd.StorageConfig.Transport.ServerList = []string{c.etcdURL}
	rec.Etcd.StorageConfig.Prefix = c.etcdPrefix
	// No watch cache: it only serves lists and watches faster, and the
	// tests list nothing. Without it, every CRD change no longer starts a
	// cache (a list and a watch of etcd) for the rebuilt storage, and no
	// write is decoded a second time for a cache; a Get reads etcd
	// either way.
	rec.Etcd.EnableWatchCache = false

	port := c.listener.Addr().(*net.TCPAddr).Port
	rec.SecureServing.Listener = c.listener
	rec.SecureServing.BindAddress = net.IPv4(127, 0, 0, 1)
	rec.SecureServing.BindPort = port
	rec.SecureServing.ExternalAddress = rec.SecureServing.BindAddress
	rec.SecureServing.ServerCert.CertDirectory = c.certDir
	rec.SecureServing.ServerCert.PairName = "apiserver"

	// Fix the process-wide feature gates and emulated version at their
	// defaults, as the server command does after parsing its flags.
	if err := setComponentGlobals(o); err != nil {
		return nil, fmt.Errorf("setting feature gates and emulated version: %w", err)
	}
	if err := o.Complete(); err != nil {
		return nil, fmt.Errorf("completing API server options: %w", err)
	}
	if err := o.Validate(); err != nil {
		return nil, fmt.Errorf("validating API server options: %w", err)
	}
	if err := rec.SecureServing.MaybeDefaultWithSelfSignedCerts("localhost", nil, []net.IP{rec.SecureServing.BindAddress}); err != nil {
		return nil, fmt.Errorf("creating the self-signed serving certificate: %w", err)
	}

	generic := genericapiserver.NewRecommendedConfig(extensionsapiserver.Codecs)
	if err := o.ServerRunOptions.ApplyTo(&generic.Config); err != nil {
		return nil, fmt.Errorf("applying server run options: %w", err)
	}
	if err := applyRecommended(rec, generic); err != nil {
		return nil, fmt.Errorf("applying recommended options: %w", err)
	}
	if err := o.APIEnablement.ApplyTo(&generic.Config, extensionsapiserver.DefaultAPIResourceConfigSource(), extensionsapiserver.Scheme); err != nil {
		return nil, fmt.Errorf("applying API enablement: %w", err)
	}
	// The loopback token is added to this authenticator when the config
	// is completed (genericapiserver.AuthorizeClientBearerToken).
	generic.Authentication.Authenticator = rejectAll
	generic.Authorization.Authorizer = authorizerfactory.NewPrivilegedGroups(user.SystemPrivilegedGroup)
	// The OpenAPI v3 documents, published per group-version, are what CRD
	// changes are observed through (see changeCRD). The server runs its v3
	// publisher only when a v2 spec is configured too; the v2 document is
	// merged lazily, on request, so it costs nothing unless read.
	definitions := openapi.GetOpenAPIDefinitionsWithoutDisabledFeatures(generatedopenapi.GetOpenAPIDefinitions)
	namer := openapinamer.NewDefinitionNamer(extensionsapiserver.Scheme, clientgoscheme.Scheme)
	generic.OpenAPIConfig = genericapiserver.DefaultOpenAPIConfig(definitions, namer)
	generic.OpenAPIV3Config = genericapiserver.DefaultOpenAPIV3Config(definitions, namer)

	config := &extensionsapiserver.Config{
		GenericConfig: generic,
		ExtraConfig: extensionsapiserver.ExtraConfig{
			CRDRESTOptionsGetter: options.NewCRDRESTOptionsGetter(*rec.Etcd, generic.ResourceTransformers, generic.StorageObjectCountTracker),
			ServiceResolver:      noServices{},
			// oteltrace.NewNoopTracerProvider, deprecated for package
			// trace/noop, is in every otel release: Kubernetes 1.30 requires
			// otel v1.19, which has no trace/noop, and the program of 1.30
			// would otherwise pull a newer otel/trace that its otel/sdk
			// does not compile against.
			AuthResolverWrapper: webhook.NewDefaultAuthenticationInfoResolverWrapper(nil, nil, generic.LoopbackClientConfig, oteltrace.NewNoopTracerProvider()), //nolint:staticcheck // see above

		},
	}
	server, err := config.Complete().New(genericapiserver.NewEmptyDelegate())
	if err != nil {
		return nil, fmt.Errorf("creating the apiextensions-apiserver: %w", err)
	}
	return server, nil
}

// rejectAll authenticates nobody. The loopback token authenticator is put
// in front of it when the server config is completed.
var rejectAll = authenticator.RequestFunc(func(*http.Request) (*authenticator.Response, bool, error) {
	return nil, false, nil
})

// noServices answers every Service lookup of a conversion webhook with an
// error: this server has no core API to look Services up in. Webhooks given
// by URL work.
type noServices struct{}

func (noServices) ResolveEndpoint(namespace, name string, port int32) (*url.URL, error) {
	return nil, fmt.Errorf("service %s/%s: the test API server has no core API and cannot resolve services", namespace, name)
}

// certDirOf names the directory for the serving certificate inside a
// server's temporary directory.
func certDirOf(dir string) string { return filepath.Join(dir, "certs") }
