package bridge

import (
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"

	"github.com/climated/climated/cmd/climated/internal/config"
)

// TokenEnv holds the bridge's bearer token when no --token-file is given.
// Never a flag: a command line is visible to every user of the machine
// (ps, /proc) and is copied into client configuration files.
const TokenEnv = "CLIMATED_TOKEN"

// UserTokenFile is where the bridge looks for the token when it is given
// none: a file of the user's own (~/.config/climated/token on Linux), so
// that a client's configuration needs no secret in it.
func UserTokenFile() string {
	dir, err := os.UserConfigDir()
	if err != nil {
		return ""
	}
	return filepath.Join(dir, "climated", "token")
}

// bridgeToken reads the bearer token: from file when named, else from
// $CLIMATED_TOKEN, else from userTokenFile when it exists; none is fine
// for a hub on loopback.
func bridgeToken(file string) (string, error) {
	if file == "" {
		if t := strings.TrimSpace(os.Getenv(TokenEnv)); t != "" {
			return t, nil
		}
		if file = UserTokenFile(); file == "" {
			return "", nil
		}
		if _, err := os.Stat(file); errors.Is(err, fs.ErrNotExist) {
			return "", nil
		}
	}
	data, err := os.ReadFile(file)
	if errors.Is(err, fs.ErrPermission) {
		return "", config.ExplainAccess(file, "climated mcp --remote …", err)
	}
	if err != nil {
		return "", fmt.Errorf("--token-file: %w (on the hub, climated token prints the token)", err)
	}
	token := strings.TrimSpace(string(data))
	if token == "" {
		return "", fmt.Errorf("--token-file %s is empty: put the hub's token in it (climated token on the hub prints it)", file)
	}
	return token, nil
}

// ParseRemote checks --remote before anything is sent.
func ParseRemote(raw string) (*url.URL, error) {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("--remote %q: want the hub's Streamable HTTP URL, e.g. http://hub.local:8473/mcp", raw)
	}
	if u.Path == "" || u.Path == "/" {
		u.Path = "/mcp"
	}
	return u, nil
}

// hubHeaders adds what the SDK's connection leaves to its Client: the
// bearer token and, once a session is initialized, the negotiated
// protocol version (the SDK sets it only when its own Client tells it the
// version, and here the desktop client's initialize passes through).
type hubHeaders struct {
	token   string
	version atomic.Pointer[string]
	next    http.RoundTripper
	refused atomic.Bool // the hub answered 401
}

func (h *hubHeaders) RoundTrip(req *http.Request) (*http.Response, error) {
	req = req.Clone(req.Context())
	if h.token != "" {
		req.Header.Set("Authorization", "Bearer "+h.token)
	}
	if v := h.version.Load(); v != nil && req.Header.Get("Mcp-Protocol-Version") == "" {
		req.Header.Set("Mcp-Protocol-Version", *v)
	}
	resp, err := h.next.RoundTrip(req)
	if err == nil && resp.StatusCode == http.StatusUnauthorized {
		h.refused.Store(true)
	}
	return resp, err
}

// tokenFix says what to do when the hub answered 401, "" when it has
// not: the SDK's error says only "Unauthorized".
func (h *hubHeaders) tokenFix() string {
	if !h.refused.Load() {
		return ""
	}
	why := "the hub refused the bearer token"
	if h.token == "" {
		why = "the hub wants a bearer token and none was sent"
	}
	return fmt.Sprintf("%s (HTTP 401): run climated token on the hub to print its token, then give it to the bridge in $%s, in a file named by --token-file, or in %s",
		why, TokenEnv, UserTokenFile())
}
