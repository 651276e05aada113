package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/climated/climated/internal/testutil"
	"github.com/climated/climated/mcp/transport/mcptest"
	"github.com/climated/climated/sensors"
)

// inbox collects what the server pushes to a client.
type inbox struct {
	mu      sync.Mutex
	updated []string
	listed  int
	logs    []string
}

func (b *inbox) options() *sdk.ClientOptions {
	return &sdk.ClientOptions{
		ResourceUpdatedHandler: func(_ context.Context, r *sdk.ResourceUpdatedNotificationRequest) {
			b.mu.Lock()
			b.updated = append(b.updated, r.Params.URI)
			b.mu.Unlock()
		},
		ResourceListChangedHandler: func(context.Context, *sdk.ResourceListChangedRequest) {
			b.mu.Lock()
			b.listed++
			b.mu.Unlock()
		},
		LoggingMessageHandler: func(_ context.Context, r *sdk.LoggingMessageRequest) {
			b.mu.Lock()
			b.logs = append(b.logs, string(r.Params.Level)+": "+r.Params.Data.(map[string]any)["message"].(string))
			b.mu.Unlock()
		},
	}
}

func (b *inbox) snapshot() ([]string, int, []string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return slices.Clone(b.updated), b.listed, slices.Clone(b.logs)
}

func record(t *testing.T, h *testHub, rs ...sensors.Reading) {
	t.Helper()
	if err := h.store.Record(context.Background(), sensors.Batch{Readings: rs}); err != nil {
		t.Fatal(err)
	}
}

func reading(zone string, m sensors.Measurement, v float64, at time.Time) sensors.Reading {
	return sensors.Reading{Zone: zone, Measurement: m, Value: v, Time: at, Source: "test/" + zone}
}

// untilUpdate records readings of zone until b hears about the zone
// (subscriptions over protocol 2026-07-28 are set up asynchronously, so the
// first readings may precede them).
func untilUpdate(t *testing.T, h *testHub, b *inbox, zone string) {
	t.Helper()
	v := 20.0
	testutil.WaitFor(t, "update for "+zone, func() bool {
		v += 0.1
		record(t, h, reading(zone, sensors.Temperature, v, time.Now()))
		time.Sleep(20 * time.Millisecond)
		u, _, _ := b.snapshot()
		return slices.Contains(u, ZoneURI(zone))
	})
}

func TestSubscribeToZone(t *testing.T) {
	h := newTestHub(t)
	var box, other inbox
	cs := h.inMemory(t, box.options())
	cs2 := h.inMemory(t, other.options())
	ctx := context.Background()
	if err := cs.Subscribe(ctx, &sdk.SubscribeParams{URI: ZoneURI("Indoor")}); err != nil {
		t.Fatal(err)
	}
	if err := cs2.Subscribe(ctx, &sdk.SubscribeParams{URI: ZoneURI("Rain")}); err != nil {
		t.Fatal(err)
	}
	untilUpdate(t, h, &box, "Indoor")
	untilUpdate(t, h, &other, "Rain")
	if u, _, _ := box.snapshot(); slices.Contains(u, ZoneURI("Rain")) {
		t.Errorf("told about Rain without a subscription: %v", u)
	}
	if u, _, _ := other.snapshot(); slices.Contains(u, ZoneURI("Indoor")) {
		t.Errorf("told about Indoor without a subscription: %v", u)
	}

	// After unsubscribing (which also takes effect asynchronously), a
	// round of readings reaches the other client and not this one.
	if err := cs.Unsubscribe(ctx, &sdk.UnsubscribeParams{URI: ZoneURI("Indoor")}); err != nil {
		t.Fatal(err)
	}
	if err := cs2.Subscribe(ctx, &sdk.SubscribeParams{URI: ZoneURI("Indoor")}); err != nil {
		t.Fatal(err)
	}
	testutil.WaitFor(t, "unsubscribe in effect", func() bool {
		before, _, _ := box.snapshot()
		other.mu.Lock()
		other.updated = nil
		other.mu.Unlock()
		record(t, h, reading("Indoor", sensors.CO2, 700, time.Now()))
		deadline := time.Now().Add(2 * time.Second)
		for {
			if u, _, _ := other.snapshot(); slices.Contains(u, ZoneURI("Indoor")) {
				break
			}
			if time.Now().After(deadline) {
				return false
			}
			time.Sleep(5 * time.Millisecond)
		}
		after, _, _ := box.snapshot()
		return len(after) == len(before)
	})

	err := cs.Subscribe(ctx, &sdk.SubscribeParams{URI: ZoneURI("Attic")})
	if err != nil && !strings.Contains(err.Error(), "not found") {
		t.Errorf("subscribe to a zone that does not exist: %v", err)
	}
}

func TestNewZoneChangesTheList(t *testing.T) {
	h := newTestHub(t)
	var box inbox
	cs := h.inMemory(t, box.options())
	if _, err := cs.ListResources(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	record(t, h, reading("Attic", sensors.Temperature, 15, time.Now()))
	testutil.WaitFor(t, "list_changed", func() bool { _, n, _ := box.snapshot(); return n > 0 })
	res, err := cs.ListResources(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(res.Resources, func(r *sdk.Resource) bool { return r.URI == ZoneURI("Attic") }) {
		t.Error("the new zone is not listed")
	}
}

func TestLoggingFaultsAndStaleZones(t *testing.T) {
	h := newTestHub(t)
	var box inbox
	cs := h.inMemory(t, box.options())
	if err := cs.SetLoggingLevel(context.Background(), &sdk.SetLoggingLevelParams{Level: "warning"}); err != nil {
		t.Fatal(err)
	}
	h.store.Report(sensors.Status{Source: "i2c1/0x76", Zones: []string{"Indoor"}, Err: errors.New("bme280: bad chip id 0x00"), ErrTime: time.Now()})
	record(t, h, reading("Cellar", sensors.Temperature, 12, time.Now().Add(-2*time.Hour)))
	testutil.WaitFor(t, "two warnings", func() bool { _, _, l := box.snapshot(); return len(l) >= 2 })
	_, _, logs := box.snapshot()
	joined := strings.Join(logs, "\n")
	for _, want := range []string{"warning: sensor fault in [Indoor]: bme280: bad chip id 0x00", "warning: zone Cellar is stale: no reading for 2 hours"} {
		if !strings.Contains(joined, want) {
			t.Errorf("logs lack %q:\n%s", want, joined)
		}
	}
	// Recovery is told at info level, which this client filtered out.
	h.store.Report(sensors.Status{Source: "i2c1/0x76", Zones: []string{"Indoor"}, LastSeen: time.Now()})
	record(t, h, reading("Cellar", sensors.Temperature, 12, time.Now()))
	var quiet inbox
	cs2 := h.inMemory(t, quiet.options())
	cs2.SetLoggingLevel(context.Background(), &sdk.SetLoggingLevelParams{Level: "debug"})
	h.store.Report(sensors.Status{Source: "i2c1/0x77", Zones: []string{"Indoor"}, Err: errors.New("nack"), ErrTime: time.Now()})
	record(t, h, reading("Indoor", sensors.CO2, 600, time.Now()))
	testutil.WaitFor(t, "fault told to the second client", func() bool { _, _, l := quiet.snapshot(); return len(l) > 0 })
	_, _, logs = box.snapshot()
	if strings.Contains(strings.Join(logs, "\n"), "healthy again") {
		t.Errorf("an info message reached a client at level warning: %v", logs)
	}
}

// Another hub going offline (its will, or a clean stop) makes the zones it
// fed stale at once: clients hear it without a reading and well before the
// watcher's next look (healthEvery, 30 s), as a stale zone and not as a
// sensor fault; describe_zones says stale with the reason; and its return
// is told as the zone's health coming back.
func TestOfflineHubIsToldAtOnce(t *testing.T) {
	h := newTestHub(t)
	var box inbox
	cs := h.inMemory(t, box.options())
	if err := cs.SetLoggingLevel(context.Background(), &sdk.SetLoggingLevelParams{Level: "info"}); err != nil {
		t.Fatal(err)
	}
	record(t, h, reading("Garden", sensors.Temperature, 6.1, time.Now()))
	src := sensors.Status{Source: "mqtt/climated/a", Zones: []string{"Garden"}, LastSeen: time.Now()}
	h.store.Report(src)
	offline := src
	offline.Err, offline.ErrTime = fmt.Errorf("hub climated/a: %w", sensors.ErrOffline), time.Now()
	h.store.Report(offline)
	testutil.WaitFor(t, "the offline hub's zone told stale", func() bool {
		_, _, l := box.snapshot()
		return slices.ContainsFunc(l, func(s string) bool {
			return strings.HasPrefix(s, "warning: zone Garden is stale: mqtt/climated/a: hub climated/a: device reports offline")
		})
	})
	_, _, logs := box.snapshot()
	if slices.ContainsFunc(logs, func(s string) bool { return strings.Contains(s, "sensor fault") }) {
		t.Errorf("an offline hub told as a sensor fault: %q", logs)
	}
	res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "describe_zones"})
	if err != nil || res.IsError {
		t.Fatal(err, res)
	}
	b, _ := json.Marshal(res.StructuredContent)
	var got struct{ Zones []zoneView }
	json.Unmarshal(b, &got)
	i := slices.IndexFunc(got.Zones, func(z zoneView) bool { return z.Name == "Garden" })
	if i < 0 || !got.Zones[i].Stale || got.Zones[i].LastError != "mqtt/climated/a: hub climated/a: device reports offline" {
		t.Errorf("describe_zones does not say Garden is stale and why: %s", b)
	}
	src.LastSeen = time.Now()
	h.store.Report(src)
	testutil.WaitFor(t, "the zone's return told", func() bool {
		_, _, l := box.snapshot()
		return slices.Contains(l, "info: zone Garden is healthy again")
	})
}

// TestSilentZoneLeavesTheList: a zone silent for GoneAfter is removed from
// the resource list (clients are told) and comes back when it reports.
func TestSilentZoneLeavesTheList(t *testing.T) {
	var mu sync.Mutex
	now := time.Now()
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	srv, _ := hubWith(t, Options{GoneAfter: time.Hour, Now: clock})
	store := srv.hub.(interface {
		Record(context.Context, sensors.Batch) error
	})
	var box inbox
	st, ct := sdk.NewInMemoryTransports()
	if _, err := srv.MCP().Connect(context.Background(), st, nil); err != nil {
		t.Fatal(err)
	}
	cs := mcptest.ConnectWith(t, ct, box.options())
	listed := func() []string {
		res, err := cs.ListResources(context.Background(), nil)
		if err != nil {
			t.Fatal(err)
		}
		var uris []string
		for _, r := range res.Resources {
			uris = append(uris, r.URI)
		}
		return uris
	}
	rec := func(zone string) {
		if err := store.Record(context.Background(), sensors.Batch{Readings: []sensors.Reading{reading(zone, sensors.Temperature, 18, clock())}}); err != nil {
			t.Fatal(err)
		}
	}
	rec("Garage")
	rec("Indoor")
	testutil.WaitFor(t, "Garage listed", func() bool { return slices.Contains(listed(), ZoneURI("Garage")) })

	mu.Lock()
	now = now.Add(2 * time.Hour)
	mu.Unlock()
	_, before, _ := box.snapshot()
	rec("Indoor") // any activity lets the watcher look again
	testutil.WaitFor(t, "Garage gone", func() bool { return !slices.Contains(listed(), ZoneURI("Garage")) })
	testutil.WaitFor(t, "list_changed for the removal", func() bool { _, n, _ := box.snapshot(); return n > before })
	if !slices.Contains(listed(), ZoneURI("Indoor")) {
		t.Error("Indoor, which reports, was removed")
	}
	rec("Garage")
	testutil.WaitFor(t, "Garage back", func() bool { return slices.Contains(listed(), ZoneURI("Garage")) })
}

// TestSubscribeOldProtocol subscribes the 2025-06-18 way, where the answer
// comes at once: an unknown zone is an error, a known one is accepted.
func TestSubscribeOldProtocol(t *testing.T) {
	h := newTestHub(t)
	resp, _ := mcptest.MCPPost(t, h.http.URL, "", mcptest.InitBody)
	session := resp.Header.Get("Mcp-Session-Id")
	mcptest.MCPPost(t, h.http.URL, session, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	_, body := mcptest.MCPPost(t, h.http.URL, session, `{"jsonrpc":"2.0","id":2,"method":"resources/subscribe","params":{"uri":"climate://zone/Attic"}}`)
	if !strings.Contains(body, `"error"`) || !strings.Contains(body, "Resource not found") {
		t.Errorf("subscribe to an unknown zone: %s", body)
	}
	_, body = mcptest.MCPPost(t, h.http.URL, session, `{"jsonrpc":"2.0","id":3,"method":"resources/subscribe","params":{"uri":"climate://zone/Indoor"}}`)
	if !strings.Contains(body, `"result":{}`) {
		t.Errorf("subscribe to Indoor: %s", body)
	}
}
