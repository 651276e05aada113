package transport

import (
	"context"
	"log/slog"
	"strings"
	"time"

	"github.com/climated/climated/internal/loglimit"
)

// DefaultLogQuiet is how long the same warning from the go-sdk stays quiet
// after it was logged once. The SDK warns about what clients do wrong (a
// notification a session cannot take, a call before initialize); one line
// per kind and period tells the operator without flooding an SD card.
const DefaultLogQuiet = time.Hour

// quietHandler is the handler under the go-sdk's loggers. The SDK reports
// routine events at INFO (a session connected, a notification sent with
// subscriber_count=0), one line per zone update on a hub; those go to
// DEBUG. Its warnings and errors become WARN, each message at most once per
// DefaultLogQuiet, with the number left out since.
type quietHandler struct {
	inner slog.Handler
	quiet *quietMessages
}

// quietMessages lets each message through once per period (loglimit:
// a line per message and period, a ceiling over all messages); shared by
// every handler derived from one quietHandler.
type quietMessages struct {
	now   func() time.Time
	limit *loglimit.Limiter
}

// SDKLogger is the logger for the go-sdk, both its Server and the
// transports' SDK handlers: log's handler under a quietHandler (one for all
// of them, so that a warning is held back wherever it comes from), its
// lines marked origin=go-sdk.
func SDKLogger(log *slog.Logger, now func() time.Time) *slog.Logger {
	return slog.New(newQuietHandler(log.Handler(), now)).With("origin", "go-sdk")
}

func newQuietHandler(inner slog.Handler, now func() time.Time) *quietHandler {
	return &quietHandler{inner: inner, quiet: &quietMessages{now: now, limit: loglimit.New(DefaultLogQuiet)}}
}

func (h *quietHandler) Enabled(ctx context.Context, level slog.Level) bool {
	return h.inner.Enabled(ctx, demote(level))
}

func (h *quietHandler) Handle(ctx context.Context, r slog.Record) error {
	r.Level = demote(r.Level)
	if undelivered(r.Message) {
		if !h.inner.Enabled(ctx, slog.LevelDebug) {
			return nil
		}
		r.Level = slog.LevelDebug
	}
	if r.Level == slog.LevelWarn {
		left, ok := h.quiet.allow(r.Message)
		if !ok {
			return nil
		}
		if left > 0 {
			r = r.Clone()
			r.AddAttrs(slog.Int("suppressed_since_last", left))
		}
	}
	return h.inner.Handle(ctx, r)
}

func (h *quietHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	return &quietHandler{inner: h.inner.WithAttrs(attrs), quiet: h.quiet}
}

func (h *quietHandler) WithGroup(name string) slog.Handler {
	return &quietHandler{inner: h.inner.WithGroup(name), quiet: h.quiet}
}

// undelivered reports whether msg is the SDK saying a notification found
// no stream to go out on: a session whose client keeps no event stream
// open (or has just closed it) cannot take notifications, which is the
// client's choice, not a fault for the operator; the session ends at its
// idle timeout.
func undelivered(msg string) bool {
	return strings.HasPrefix(msg, "calling notifications/") && strings.Contains(msg, "stream not connected or already closed")
}

func demote(l slog.Level) slog.Level {
	if l < slog.LevelWarn {
		return slog.LevelDebug
	}
	return slog.LevelWarn
}

// allow reports whether msg may be logged now, and how many times it was
// held back since it last was.
func (q *quietMessages) allow(msg string) (int, bool) {
	ok, left := q.limit.Allow(msg, q.now())
	return int(left), ok
}
