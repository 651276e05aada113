package main

import (
	"log/slog"
	"net"
	"net/http"

	"github.com/climated/climated/cmd/climated/internal/config"
	"github.com/climated/climated/cmd/climated/internal/front"
	"github.com/climated/climated/cmd/climated/internal/sources"
	"github.com/climated/climated/cmd/climated/internal/token"
	"github.com/climated/climated/sensors/station"
)

// stationSecret is the unguessable part of the path a weather station
// uploads to, created beside the token the first time ("" without a
// station: section). A station can send neither TLS nor a token: the
// path is what keeps others from uploading.
func stationSecret(cfg config.Config, log *slog.Logger) (string, error) {
	if cfg.Station == nil {
		return "", nil
	}
	secret, err := token.LoadOrCreate(cfg.StationSecretPath())
	if err != nil {
		return "", err
	}
	if host, _, _ := net.SplitHostPort(cfg.Listen); front.IsLoopback(host) {
		log.Warn("station: the hub listens on loopback, where a station on the LAN cannot reach it: set listen: 0.0.0.0:8473", "listen", cfg.Listen)
	}
	log.Info("station: uploads are taken at the path `climated station` prints", "secret_file", cfg.StationSecretPath())
	return secret, nil
}

// mountStation serves the running station source's uploads at its path:
// the source of the current sources (a reload builds new ones) takes
// them. The path takes no bearer token. Uploads that miss it (a wrong
// secret, another guide's path, a hub without a station: section) are
// answered and logged by station.Stray.
func mountStation(f *front.Front, secret string, run *sources.Running, log *slog.Logger) {
	stray := station.Stray(log.With("source", "station"), secret != "")
	for _, p := range station.StrayPaths {
		f.Mount(p, stray)
	}
	if secret == "" {
		return
	}
	f.Mount(station.Path(secret), http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		set := run.Set()
		if set == nil || set.Station == nil {
			http.Error(w, "the hub takes no station's uploads now (station: is not configured)", http.StatusNotFound)
			return
		}
		set.Station.Handler().ServeHTTP(w, r)
	}))
}
