package dash

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"fmt"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"strings"

	"github.com/climated/climated/internal/uplot"
	"github.com/climated/climated/internal/weathercard"
)

//go:embed web
var webFS embed.FS

// StylesheetPath is where the dashboard's stylesheet is served: its
// colours, fonts and light and dark themes, for the hub's other pages
// (the OAuth consent page) to link.
const StylesheetPath = "/dash/static/app.css"

// asset is one embedded file, gzipped once at start.
type asset struct {
	raw, gz []byte
	ctype   string
	etag    string
}

// loadAssets reads the page's files; under vendor/uplot, the vendored
// uPlot (internal/uplot, shared with the MCP Apps views); and beside the
// page's own, the weather card's weather.js and weather.css
// (internal/weathercard, shared with the MCP Apps house view).
func loadAssets() (map[string]*asset, error) {
	out := map[string]*asset{}
	web, err := fs.Sub(webFS, "web")
	if err == nil {
		err = addAssets(out, web, "")
	}
	if err == nil {
		err = addAssets(out, uplot.Files(), "vendor/uplot/")
	}
	if err == nil {
		err = addAssets(out, weathercard.Files(), "")
	}
	if err != nil {
		return nil, fmt.Errorf("load dashboard assets: %w", err)
	}
	return out, nil
}

// addAssets adds every file of fsys to out under prefix.
func addAssets(out map[string]*asset, fsys fs.FS, prefix string) error {
	return fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		raw, err := fs.ReadFile(fsys, p)
		if err != nil {
			return err
		}
		if out[prefix+p] != nil {
			return fmt.Errorf("%s%s: two files of that name", prefix, p)
		}
		sum := sha256.Sum256(raw)
		a := &asset{raw: raw, gz: gzipped(raw, gzip.BestCompression), etag: `"` + hex.EncodeToString(sum[:8]) + `"`}
		a.ctype = mime.TypeByExtension(path.Ext(p))
		if a.ctype == "" {
			a.ctype = "text/plain; charset=utf-8"
		}
		out[prefix+p] = a
		return nil
	})
}

// gzipped compresses b: the assets once at start at the best ratio, the
// answers at the best speed (a Pi's CPU is the scarcer resource).
func gzipped(b []byte, level int) []byte {
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, level) // a valid level: no error
	zw.Write(b)
	zw.Close()
	return buf.Bytes()
}

func (h *Handler) serveStatic(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("file")
	if name == "index.html" || h.assets[name] == nil {
		http.NotFound(w, r)
		return
	}
	h.serveAsset(name)(w, r)
}

func (h *Handler) serveAsset(name string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		a := h.assets[name]
		hd := w.Header()
		hd.Set("Content-Type", a.ctype)
		hd.Set("ETag", a.etag)
		hd.Set("Cache-Control", "no-cache") // revalidate: the ETag makes that a 304
		hd.Set("Vary", "Accept-Encoding")
		if name == "index.html" {
			setPageHeaders(hd)
		}
		if r.Header.Get("If-None-Match") == a.etag {
			w.WriteHeader(http.StatusNotModified)
			return
		}
		body := a.raw
		if acceptsGzip(r) {
			hd.Set("Content-Encoding", "gzip")
			body = a.gz
		}
		hd.Set("Content-Length", fmt.Sprint(len(body)))
		w.Write(body)
	}
}

// setPageHeaders forbids loading anything from elsewhere and framing.
func setPageHeaders(hd http.Header) {
	hd.Set("Content-Security-Policy", "default-src 'self'; img-src 'self' data: blob:; style-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'")
	hd.Set("X-Content-Type-Options", "nosniff")
	hd.Set("Referrer-Policy", "same-origin") // "no-referrer" makes a form's Origin "null"
}

func acceptsGzip(r *http.Request) bool {
	for _, part := range strings.Split(r.Header.Get("Accept-Encoding"), ",") {
		if strings.TrimSpace(strings.SplitN(part, ";", 2)[0]) == "gzip" {
			return true
		}
	}
	return false
}

// writeJSON writes data, gzipped when it is large enough to gain from it.
func writeJSON(w http.ResponseWriter, r *http.Request, data []byte) {
	hd := w.Header()
	hd.Set("Content-Type", "application/json")
	hd.Set("Cache-Control", "no-store")
	hd.Set("Vary", "Accept-Encoding")
	if len(data) > 1024 && acceptsGzip(r) {
		data = gzipped(data, gzip.BestSpeed)
		hd.Set("Content-Encoding", "gzip")
	}
	w.Write(data)
}
