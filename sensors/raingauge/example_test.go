package raingauge_test

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"os/signal"

	"github.com/climated/climated/sensors"
	"github.com/climated/climated/sensors/raingauge"
)

// printSink prints what a source records; the hub records it in its
// history (history/hub.Hub is a sensors.Sink).
type printSink struct{}

func (printSink) Record(_ context.Context, b sensors.Batch) error {
	rs := b.Readings
	for _, r := range rs {
		fmt.Println(r.Time.Format("15:04"), r.Zone, r.Measurement, r.Value)
	}
	return nil
}

func (printSink) Flush(context.Context) error { return nil }

func (printSink) Report(st sensors.Status) {
	if st.Err != nil {
		fmt.Println(st.Source, st.Err)
	}
}

func Example() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	log := slog.New(slog.NewTextHandler(os.Stderr, nil))
	g, err := raingauge.New(raingauge.Config{Pin: "GPIO17"}, &raingauge.Options{Logger: log})
	if err != nil {
		log.Error("rain gauge", "err", err)
		return
	}
	if err := g.Run(ctx, printSink{}); err != nil {
		log.Error("rain gauge", "err", err)
	}
}
