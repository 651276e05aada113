package station

import (
	"errors"
	"net/http"
	"net/url"
	"strings"
)

// Handler takes the station's uploads: the Ecowitt protocol's POST (a
// form with PASSKEY) and the Weather Underground protocol's GET (ID in
// the query; Ambient Weather's consoles send it), at any path beneath
// where it is mounted. It answers 200 once the readings are recorded, 400
// for an upload it cannot read, 403 for a station not allowed, 429 for
// one that uploads too fast and 503 while the hub is not running.
func (s *Source) Handler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost && r.Method != http.MethodGet {
			w.Header().Set("Allow", "GET, POST")
			http.Error(w, "a station uploads with POST (Ecowitt) or GET (Weather Underground)", http.StatusMethodNotAllowed)
			return
		}
		r.Body = http.MaxBytesReader(w, r.Body, MaxBody)
		if err := r.ParseForm(); err != nil {
			http.Error(w, "the upload is not a form of at most 16 KB: "+err.Error(), http.StatusBadRequest)
			return
		}
		inPath(r)
		protocol := Ecowitt
		if r.Form.Get("PASSKEY") == "" && r.Form.Get("ID") != "" {
			protocol = Wunderground
		}
		u, err := Decode(protocol, r.Form, Options{Metric: s.cfg.Metric})
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		switch err := s.record(r.Context(), u); {
		case err == nil:
			answer(w, protocol)
		case errors.Is(err, errUnknownStation):
			http.Error(w, "this station may not upload here (station.passkeys)", http.StatusForbidden)
		case errors.Is(err, errTooFast):
			http.Error(w, err.Error(), http.StatusTooManyRequests)
		default:
			http.Error(w, "the hub could not record the upload: "+err.Error(), http.StatusServiceUnavailable)
		}
	})
}

// inPath reads the fields of an Ambient Weather console that put them in
// the path: its firmware appends "&PASSKEY=…&tempf=…" to the path it was
// given, so a path set without a trailing "?" gives
// /station/<secret>/&PASSKEY=… (bachya/ecowitt2mqtt#697: "/endpoint?&PASSKEY"
// with the "?", tlskinneriv/hassio-addons#21: "GET ?&PASSKEY=…").
func inPath(r *http.Request) {
	if r.Form.Get("PASSKEY") != "" || r.Form.Get("ID") != "" {
		return
	}
	p := r.URL.EscapedPath()
	i := strings.Index(p, "PASSKEY=")
	if i < 0 {
		i = strings.Index(p, "ID=")
	}
	if i < 0 {
		return
	}
	if q, err := url.ParseQuery(p[i:]); err == nil {
		for k, vs := range q {
			r.Form[k] = append(r.Form[k], vs...)
		}
	}
}

// answer is what each protocol's stations expect on success.
func answer(w http.ResponseWriter, protocol string) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	if protocol == Wunderground {
		w.Write([]byte("success\n"))
		return
	}
	w.Write([]byte("OK\n"))
}

// Path is where the hub takes uploads: beneath an unguessable part, since
// a station can send neither TLS nor a token.
func Path(secret string) string { return "/station/" + strings.TrimSpace(secret) + "/" }
