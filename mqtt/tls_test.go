package mqtt

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mochi-mqtt/server/v2/hooks/auth"
	"github.com/mochi-mqtt/server/v2/listeners"

	"github.com/climated/climated/internal/testutil"
)

// testPKI is a certificate authority for one test.
type testPKI struct {
	t      *testing.T
	dir    string
	cert   *x509.Certificate
	key    *ecdsa.PrivateKey
	serial int64
	pool   *x509.CertPool
	caFile string // the authority's certificate as PEM
}

func newPKI(t *testing.T, name string) *testPKI {
	t.Helper()
	p := &testPKI{t: t, dir: t.TempDir(), serial: 1}
	p.key, _ = ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	tmpl := p.template(name)
	tmpl.IsCA, tmpl.BasicConstraintsValid, tmpl.KeyUsage = true, true, x509.KeyUsageCertSign
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &p.key.PublicKey, p.key)
	if err != nil {
		t.Fatal(err)
	}
	p.cert, _ = x509.ParseCertificate(der)
	p.pool = x509.NewCertPool()
	p.pool.AddCert(p.cert)
	p.caFile = p.write(name+".pem", "CERTIFICATE", der)
	return p
}

func (p *testPKI) template(name string) *x509.Certificate {
	p.serial++
	return &x509.Certificate{
		SerialNumber: big.NewInt(p.serial), Subject: pkix.Name{CommonName: name},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
	}
}

func (p *testPKI) write(name, kind string, der []byte) string {
	path := filepath.Join(p.dir, name)
	if err := os.WriteFile(path, pem.EncodeToMemory(&pem.Block{Type: kind, Bytes: der}), 0o600); err != nil {
		p.t.Fatal(err)
	}
	return path
}

// issue signs a certificate for a server on 127.0.0.1 or for a client.
func (p *testPKI) issue(name string, usage x509.ExtKeyUsage) ([]byte, *ecdsa.PrivateKey) {
	key, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	tmpl := p.template(name)
	tmpl.ExtKeyUsage = []x509.ExtKeyUsage{usage}
	tmpl.IPAddresses = []net.IP{net.ParseIP("127.0.0.1")}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, p.cert, &key.PublicKey, p.key)
	if err != nil {
		p.t.Fatal(err)
	}
	return der, key
}

func (p *testPKI) server() tls.Certificate {
	der, key := p.issue("broker", x509.ExtKeyUsageServerAuth)
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key}
}

// client writes a client certificate and its key, and returns the files.
func (p *testPKI) client(name string) (certFile, keyFile string) {
	der, key := p.issue(name, x509.ExtKeyUsageClientAuth)
	kder, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		p.t.Fatal(err)
	}
	return p.write(name+".crt", "CERTIFICATE", der), p.write(name+".key", "EC PRIVATE KEY", kder)
}

// startTLSBroker runs mochi on a TLS listener; with clients, it requires
// a client certificate from that authority.
func startTLSBroker(t *testing.T, ca *testPKI, clients *testPKI) string {
	t.Helper()
	cfg := &tls.Config{Certificates: []tls.Certificate{ca.server()}, MinVersion: tls.VersionTLS12}
	if clients != nil {
		cfg.ClientAuth, cfg.ClientCAs = tls.RequireAndVerifyClientCert, clients.pool
	}
	l := listeners.NewTCP(listeners.Config{ID: "tls", Address: "127.0.0.1:0", TLSConfig: cfg})
	testutil.Broker(t, l, new(auth.AllowHook), nil)
	return l.Address()
}

// connects runs a client with o and waits until it is connected, or, with
// refusal set, until its Health names the refusal.
func connects(t *testing.T, o Options, refusal string) {
	t.Helper()
	c := newClient(t, o)
	runClient(t, c)
	if refusal == "" {
		testutil.WaitFor(t, "the connection to "+o.Broker, c.Connected)
		return
	}
	testutil.WaitFor(t, "the refusal: "+refusal, func() bool {
		err := c.Health()
		return err != nil && strings.Contains(err.Error(), refusal)
	})
	if c.Connected() {
		t.Errorf("connected to %s", o.Broker)
	}
}

func TestClientTLS(t *testing.T) {
	home, other := newPKI(t, "home-ca"), newPKI(t, "other-ca")
	addr := startTLSBroker(t, home, nil)
	for _, scheme := range []string{"ssl", "tls", "mqtts"} {
		o := fastOptions(scheme+"://"+addr, "climated/tls")
		o.CAFile = home.caFile
		connects(t, o, "")
	}
	o := fastOptions("tls://"+addr, "climated/tls")
	o.CAFile = other.caFile
	connects(t, o, "certificate signed by unknown authority")
}

func TestClientCertificate(t *testing.T) {
	home, devices := newPKI(t, "home-ca"), newPKI(t, "device-ca")
	addr := startTLSBroker(t, home, devices)
	o := fastOptions("mqtts://"+addr, "climated/mtls")
	o.CAFile = home.caFile
	o.CertFile, o.KeyFile = devices.client("hub")
	if err := o.Validate(); err != nil {
		t.Fatal(err)
	}
	connects(t, o, "")
	o.CertFile, o.KeyFile = "", ""
	connects(t, o, "certificate")
}
