package dash

import (
	"errors"
	"fmt"
	"math"
	"net/http"
	"strings"
)

// ErrNotOwner is CheckOwner's answer to a wrong token.
var ErrNotOwner = errors.New("that is not the hub's token")

// CheckOwner tells the hub's owner on the OAuth consent page
// (oauth.Options.Owner): the hub's token, with the login's limits on
// tries, so the page and the login share one set of them and a guesser
// gains nothing by switching.
func (h *Handler) CheckOwner(r *http.Request, given string) error {
	if h.opts.Token == "" {
		return errors.New("this hub has no token: set one before letting assistants sign in")
	}
	if h.tokenMatches(strings.TrimSpace(given)) {
		return nil // the right token always gets in (auth_limit.go)
	}
	if no := h.wrongToken(r, "consent page"); no != nil {
		return fmt.Errorf("%s: try again in %d s", no.msg, max(1, int(math.Ceil(no.retry.Seconds()))))
	}
	return ErrNotOwner
}
