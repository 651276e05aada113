package notify

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"

	"github.com/climated/climated/history/alerts"
)

// ntfyMessage is ntfy's JSON publish format, "Publish as JSON"
// (https://docs.ntfy.sh/publish/#publish-as-json): a POST to the server's
// root URL (not the topic's URL); an access token goes in
// "Authorization: Bearer".
type ntfyMessage struct {
	Topic    string   `json:"topic"`
	Title    string   `json:"title"`
	Message  string   `json:"message"`
	Priority int      `json:"priority"` // 1 min … 3 default … 5 max
	Tags     []string `json:"tags"`     // tags that are emoji short codes show as emoji
}

// gotifyMessage is Gotify's message, "Push messages"
// (https://gotify.net/docs/pushmsg; the server reads the token in
// auth/authentication.go, readTokenFromRequest): a POST to the server's
// /message with the application token in the X-Gotify-Key header (Gotify
// also takes ?token=, which would put it in proxies' logs, so it is not
// used).
type gotifyMessage struct {
	Title    string `json:"title"`
	Message  string `json:"message"`
	Priority int    `json:"priority"` // 0…10; 4–7 notify, 8–10 insist
}

// title is "Bedroom alert: stuffy air" or "Bedroom alert cleared".
func title(e alerts.Event) string {
	t := e.Zone + " alert"
	if e.Type == alerts.Cleared {
		t += " cleared"
	}
	return t
}

// message is the event's text, and how many events of its alert it
// stands for (see pace.go).
func message(e alerts.Event, folded int) string {
	switch folded {
	case 0:
		return e.Text
	case 1:
		return e.Text + " (and 1 more event of this alert since the last notification)"
	}
	return fmt.Sprintf("%s (and %d more events of this alert since the last notification)", e.Text, folded)
}

// request builds the POST of e in c's format.
func (c Config) request(ctx context.Context, e alerts.Event, folded int) (*http.Request, error) {
	fired := e.Type == alerts.Fired
	text := message(e, folded)
	var body any
	if c.format() == Gotify {
		body = gotifyMessage{Title: title(e), Message: text, Priority: pick(fired, 8, 4)}
	} else {
		tag := "white_check_mark"
		if fired {
			tag = "warning"
		}
		body = ntfyMessage{Topic: c.Topic, Title: title(e), Message: text, Priority: pick(fired, 4, 3), Tags: []string{tag, string(e.Kind)}}
	}
	b, err := json.Marshal(body)
	if err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.URL, bytes.NewReader(b))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	switch {
	case c.Token == "":
	case c.format() == Gotify:
		req.Header.Set("X-Gotify-Key", c.Token)
	default:
		req.Header.Set("Authorization", "Bearer "+c.Token)
	}
	return req, nil
}

func pick(fired bool, a, b int) int {
	if fired {
		return a
	}
	return b
}
