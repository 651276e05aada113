package discovery

import (
	"bytes"
	"context"
	"encoding/xml"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"time"
)

// AvahiSocket is where avahi-daemon answers when it runs.
const AvahiSocket = "/run/avahi-daemon/socket"

// AvahiFile is the name of the service file the hub writes for Avahi, in
// its runtime directory; the systemd unit copies it into
// /etc/avahi/services when the hub has started and removes it when the
// hub stops (docs/discovery.md).
const AvahiFile = "avahi.service"

// AvahiInstalled is where the systemd unit puts the hub's service file
// for Avahi.
const AvahiInstalled = "/etc/avahi/services/climated.service"

// AvahiHas reports whether the file at path holds want, looking every
// 100 ms until wait has passed or ctx ends.
func AvahiHas(ctx context.Context, path string, want []byte, wait time.Duration) bool {
	deadline := time.NewTimer(wait)
	defer deadline.Stop()
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for {
		if got, err := os.ReadFile(path); err == nil && bytes.Equal(got, want) {
			return true
		}
		select {
		case <-ctx.Done():
			return false
		case <-deadline.C:
			return false
		case <-tick.C:
		}
	}
}

// AvahiRunning reports whether an avahi-daemon answers on socket.
func AvahiRunning(socket string) bool {
	c, err := net.DialTimeout("unix", socket, 200*time.Millisecond)
	if err != nil {
		return false
	}
	c.Close()
	return true
}

// AvahiService is the hub's Avahi service file (avahi.service(5)): the
// two services with their TXT records, on the host name Avahi keeps.
func AvahiService(h Hub) []byte {
	type txt struct {
		Value string `xml:",chardata"`
	}
	type service struct {
		Type string `xml:"type"`
		Port int    `xml:"port"`
		TXT  []txt  `xml:"txt-record"`
	}
	type group struct {
		XMLName xml.Name  `xml:"service-group"`
		Name    string    `xml:"name"`
		Svc     []service `xml:"service"`
	}
	rec := func(ss []string) []txt {
		out := make([]txt, len(ss))
		for i, s := range ss {
			out[i] = txt{s}
		}
		return out
	}
	g := group{Name: h.Instance, Svc: []service{
		{Type: ServiceMCP, Port: h.Port, TXT: rec(h.TXT())},
		{Type: ServiceHTTP, Port: h.Port, TXT: rec(httpTXT())},
	}}
	var b bytes.Buffer
	b.WriteString(xml.Header)
	b.WriteString(`<!DOCTYPE service-group SYSTEM "avahi-service.dtd">` + "\n")
	b.WriteString("<!-- Written by climated at start-up (docs/discovery.md); removed when it stops. -->\n")
	enc := xml.NewEncoder(&b)
	enc.Indent("", "  ")
	if err := enc.Encode(g); err != nil {
		panic(err) // fixed types of strings and ints: cannot fail
	}
	b.WriteByte('\n')
	return b.Bytes()
}

// WriteAvahiService writes the hub's service file into dir, replacing
// any one there, for the unit to hand to Avahi; it returns the path.
func WriteAvahiService(dir string, h Hub) (string, error) {
	path := filepath.Join(dir, AvahiFile)
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, AvahiService(h), 0o644); err != nil {
		return "", fmt.Errorf("write the Avahi service file: %w", err)
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return "", fmt.Errorf("write the Avahi service file: %w", err)
	}
	return path, nil
}
