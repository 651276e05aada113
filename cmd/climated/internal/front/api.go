package front

import (
	"encoding/json"
	"net/http"
)

// climate serves the get_climate structure as it stands.
func climate(snapshot func() []byte) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Cache-Control", "no-store")
		w.Write(snapshot())
	})
}

// health answers 200 when every check passes, else 503 with every failing
// part named, one per entry of "problems"; either way with "warnings"
// when there are any.
func health(checks []func() error, warnings []func() []string, details map[string]func() any) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Cache-Control", "no-store")
		var found, warned []string
		for _, check := range checks {
			found = append(found, problems(check())...)
		}
		for _, warn := range warnings {
			warned = append(warned, warn()...)
		}
		body := map[string]any{"status": "ok"}
		code := http.StatusOK
		if len(found) > 0 {
			body = map[string]any{"status": "unhealthy", "problems": found}
			code = http.StatusServiceUnavailable
		}
		if len(warned) > 0 {
			body["warnings"] = warned
		}
		for k, d := range details {
			body[k] = d()
		}
		w.WriteHeader(code)
		json.NewEncoder(w).Encode(body)
	})
}
