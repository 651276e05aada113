package raingauge_test

import (
	"context"
	"log/slog"
	"os"
	"os/signal"

	"github.com/climated/climated/history/hub"
	"github.com/climated/climated/sensors/raingauge"
)

func Example() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	log := slog.New(slog.NewTextHandler(os.Stderr, nil))
	store, err := hub.Open(ctx, "rain.db", nil)
	if err != nil {
		log.Error("open history", "err", err)
		return
	}
	defer store.Close(context.Background())
	g, err := raingauge.New(raingauge.Config{Pin: "GPIO17"}, &raingauge.Options{Logger: log})
	if err != nil {
		log.Error("rain gauge", "err", err)
		return
	}
	if err := g.Run(ctx, store); err != nil {
		log.Error("rain gauge", "err", err)
	}
}
