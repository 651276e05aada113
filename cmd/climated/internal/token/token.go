package token

import (
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/climated/climated/cmd/climated/internal/cli"
	"github.com/climated/climated/cmd/climated/internal/config"
)

// LoadOrCreate reads the token file, creating it with a new random
// token (mode 0600) on first use. A file that others can read is refused.
func LoadOrCreate(path string) (string, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		if err := os.MkdirAll(filepath.Dir(path), 0o750); err != nil {
			return "", fmt.Errorf("token: %w", err)
		}
		token := rand.Text()
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if err != nil {
			return "", fmt.Errorf("token: create %s: %w", path, err)
		}
		if _, err := f.WriteString(token + "\n"); err != nil {
			f.Close()
			return "", fmt.Errorf("token: write %s: %w", path, err)
		}
		return token, f.Close()
	}
	if err != nil {
		return "", fmt.Errorf("token: %w", err)
	}
	fi, err := os.Stat(path)
	if err != nil {
		return "", fmt.Errorf("token: %w", err)
	}
	if fi.Mode().Perm()&0o077 != 0 {
		return "", fmt.Errorf("token file %s is readable by others (mode %04o): run chmod 600 %s", path, fi.Mode().Perm(), path)
	}
	token := strings.TrimSpace(string(data))
	if len(token) < 16 {
		return "", fmt.Errorf("token file %s holds %d characters: a token needs at least 16 (delete the file to get a new one)", path, len(token))
	}
	return token, nil
}

// Command is `climated token`: it prints the bearer token, creating it
// if needed.
func Command(args []string, stdout, stderr io.Writer) error {
	cfg, err := cli.NewDataFlags("token", stdout, stderr).Config(args, stderr)
	if err != nil {
		return err
	}
	token, err := LoadOrCreate(cfg.TokenPath())
	if err != nil {
		// On an installed hub the token is the service user's.
		return config.ExplainAccess(cfg.TokenPath(), "climated token", err)
	}
	fmt.Fprintln(stdout, token)
	return nil
}
