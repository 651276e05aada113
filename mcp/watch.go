package mcp

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/climated/climated/sensors"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// healthEvery is how often the watcher looks for stale zones and faulty
// sources to tell clients about.
const healthEvery = 30 * time.Second

// updates gathers the zones that got readings until the watcher takes them.
type updates struct {
	mu     sync.Mutex
	zones  map[string]bool
	added  bool
	signal chan struct{}
}

func newUpdates() *updates {
	return &updates{zones: map[string]bool{}, signal: make(chan struct{}, 1)}
}

func (u *updates) push(zones []string, added bool) {
	u.mu.Lock()
	for _, z := range zones {
		u.zones[z] = true
	}
	u.added = u.added || added
	u.mu.Unlock()
	select {
	case u.signal <- struct{}{}:
	default:
	}
}

func (u *updates) take() (map[string]bool, bool) {
	u.mu.Lock()
	defer u.mu.Unlock()
	z, a := u.zones, u.added
	u.zones, u.added = map[string]bool{}, false
	return z, a
}

// subscribe accepts subscriptions to the zones listing and to zones that exist.
func (s *Server) subscribe(_ context.Context, req *sdk.SubscribeRequest) error {
	if req.Params.URI == URIZones || s.isAlertsURI(req.Params.URI) {
		return nil
	}
	if _, ok := s.zoneFromURI(req.Params.URI); !ok {
		return sdk.ResourceNotFoundError(req.Params.URI)
	}
	return nil
}

// watch turns new readings into resources/updated notifications for the
// zones that got them, new zones into list_changed, and faults and stale
// zones into log messages, until ctx ends.
func (s *Server) watch(ctx context.Context, u *updates) {
	defer close(s.done)
	health := newHealthLog()
	tick := time.NewTicker(healthEvery)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-u.signal:
			zones, added := u.take()
			if added {
				s.mcp.ResourceUpdated(ctx, &sdk.ResourceUpdatedNotificationParams{URI: URIZones})
				s.syncMeasures() // a new series may be a new measurement
			}
			for z := range zones {
				s.mcp.ResourceUpdated(ctx, &sdk.ResourceUpdatedNotificationParams{URI: ZoneURI(z)})
			}
		case <-tick.C:
		}
		s.syncZones()
		s.logHealth(ctx, health)
	}
}

// healthLog remembers what clients were told, so a fault or a stale zone
// is reported when it starts and when it ends, not on every tick.
type healthLog struct{ told map[string]string }

func newHealthLog() *healthLog { return &healthLog{told: map[string]string{}} }

func (s *Server) logHealth(ctx context.Context, h *healthLog) {
	current := map[string]string{}
	statuses := s.hub.Statuses()
	health := sensors.HealthByZone(statuses)
	for _, st := range statuses {
		if st.Err != nil && !errors.Is(st.Err, sensors.ErrOffline) {
			current["source "+st.Source] = fmt.Sprintf("sensor fault in %v: %v", st.Zones, st.Err)
		}
	}
	for _, z := range s.hub.Describe() {
		hz, age := health[z.Name], s.silent(z)
		switch {
		case hz.Offline:
			// The source says so: no need to wait StaleAfter.
			current["zone "+z.Name] = fmt.Sprintf("zone %s is stale: %s (last reading at %s)", z.Name, hz.Fault, s.localTime(z.When))
		case age > s.opts.StaleAfter:
			current["zone "+z.Name] = fmt.Sprintf("zone %s is stale: no reading for %s (last at %s)", z.Name, humanDuration(age), s.localTime(z.When))
		}
	}
	for key, msg := range current {
		if h.told[key] == "" {
			s.logToClients(ctx, "warning", key, msg)
		}
	}
	for key := range h.told {
		if current[key] == "" {
			s.logToClients(ctx, "info", key, key+" is healthy again")
		}
	}
	h.told = current
}

// logToClients sends a log notification to every session; the SDK drops it
// for sessions whose logging/setLevel is above level or that set none.
func (s *Server) logToClients(ctx context.Context, level sdk.LoggingLevel, key, msg string) {
	for ss := range s.mcp.Sessions() {
		ss.Log(ctx, &sdk.LoggingMessageParams{Level: level, Logger: "climated", Data: map[string]string{"subject": key, "message": msg}})
	}
}
