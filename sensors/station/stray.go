package station

import (
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/climated/climated/internal/loglimit"
)

// StrayPaths are where uploads that miss the station's path come: any
// other secret beneath /station/, and the paths other guides give for a
// console's customized upload (Ecowitt's /data/report/, Weather
// Underground's own).
var StrayPaths = []string{"/station/", "/data/report/", "/weatherstation/updateweatherstation.php"}

// Stray answers uploads at StrayPaths with 404 and a line in the log
// that says where they came and why they were not taken (a wrong secret,
// a path from another guide, no station: section), at most one a minute
// for each shape of path; the log shows a secret's length, never the
// secret.
func Stray(log *slog.Logger, configured bool) http.Handler {
	limit := loglimit.New(time.Minute)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		shape, why := strayShape(r.URL.Path, configured)
		if ok, n := limit.Allow(shape, time.Now()); ok {
			log.Warn("station: an upload came to a path the hub takes none at", "path", shape, "why", why, "from", r.RemoteAddr, "more_since_last_line", n)
		}
		http.Error(w, "no station uploads are taken at this path: "+why, http.StatusNotFound)
	})
}

// strayShape is path as the log may show it (a secret as its length) and
// why an upload there is not taken.
func strayShape(path string, configured bool) (shape, why string) {
	shape = path
	if rest, ok := strings.CutPrefix(path, "/station/"); ok {
		secret, _, _ := strings.Cut(rest, "/")
		shape = fmt.Sprintf("/station/<%d characters>/", len(secret))
	} else if rest, ok := strings.CutPrefix(path, "/data/report/"); ok && rest != "" {
		// What follows another guide's path is no part of it: an Ambient
		// console's fields (&PASSKEY=…), or anything a sender makes up.
		shape = fmt.Sprintf("/data/report/<%d characters>", len(rest))
	}
	switch {
	case !configured:
		why = "the hub has no station: section in its configuration"
	case strings.HasPrefix(path, "/station/"):
		why = "not the station's secret: `climated station` prints the path to set on the console"
	default:
		why = "the station's path is /station/<secret>/: `climated station` prints it"
	}
	return shape, why
}
