package connect

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"
)

// clientFile is the client's file on this machine, resolved.
func (c Client) clientFile() (string, error) {
	p, ok := c.Files[runtime.GOOS]
	if !ok {
		return "", fmt.Errorf("%s: %w (see climated connect %s)", c.Title, errNoFile, c.ID)
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", err
	}
	switch {
	case strings.HasPrefix(p, "~/.config/"):
		// XDG_CONFIG_HOME where set, as the clients themselves do.
		dir, err := os.UserConfigDir()
		if err != nil {
			return "", err
		}
		p = filepath.Join(dir, strings.TrimPrefix(p, "~/.config/"))
	case strings.HasPrefix(p, "~/"):
		p = filepath.Join(home, p[2:])
	case strings.HasPrefix(p, `%APPDATA%\`):
		p = filepath.Join(os.Getenv("APPDATA"), filepath.FromSlash(strings.ReplaceAll(p[len(`%APPDATA%\`):], `\`, "/")))
	case strings.HasPrefix(p, `%USERPROFILE%\`):
		p = filepath.Join(home, filepath.FromSlash(strings.ReplaceAll(p[len(`%USERPROFILE%\`):], `\`, "/")))
	}
	return filepath.Abs(p)
}

// WriteFile merges the hub's entry into the client's file: other
// servers and every other key stay as they are; an entry of the same name
// is replaced. The old file is copied aside first.
func WriteFile(c Client, t Target, stdout io.Writer) error {
	path, err := c.clientFile()
	if err != nil {
		return err
	}
	doc, mode, err := readClientFile(path)
	if err != nil {
		return err
	}
	replaced, err := mergeEntry(&doc, c, t)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	out, err := indentJSON(doc)
	if err != nil {
		return err
	}
	out = append(out, '\n')
	if old, err := os.ReadFile(path); err == nil && bytes.Equal(old, out) {
		// Nothing changes: no write, no backup.
		fmt.Fprintf(stdout, "%q in %s is already as it would be written: nothing changed\n", t.Name, path)
		return nil
	}
	backup, err := backupFile(path)
	if err != nil {
		return err
	}
	if err := writeAtomic(path, out, mode); err != nil {
		return err
	}
	verb := "added"
	if replaced {
		verb = "replaced"
	}
	fmt.Fprintf(stdout, "%s %q in %s", verb, t.Name, path)
	if backup != "" {
		fmt.Fprintf(stdout, " (the old file is %s)", backup)
	}
	fmt.Fprintln(stdout)
	if c.Notes != nil {
		fmt.Fprintln(stdout, strings.Join(c.Notes(t), "\n"))
	}
	return nil
}

// mergeEntry puts the hub's entry into doc, in place of one of the same
// name (replaced) or after the others, and the client's inputs.
func mergeEntry(doc *jsonObject, c Client, t Target) (replaced bool, err error) {
	var servers jsonObject
	if raw, ok := doc.get(c.Key); ok {
		if err := json.Unmarshal(raw, &servers); err != nil {
			return false, fmt.Errorf("%q is not an object of servers (%v): fix it or add the entry by hand (climated connect %s prints it)", c.Key, err, c.ID)
		}
	}
	_, replaced = servers.get(t.Name)
	entry, err := json.Marshal(c.Entry(t))
	if err != nil {
		return false, err
	}
	servers.set(t.Name, entry)
	raw, err := json.Marshal(servers)
	if err != nil {
		return false, err
	}
	doc.set(c.Key, raw)
	if c.Inputs != nil {
		return replaced, mergeInputs(doc, c.Inputs(t))
	}
	return replaced, nil
}

// readClientFile reads a JSON object; a missing file is an empty one.
func readClientFile(path string) (jsonObject, fs.FileMode, error) {
	var doc jsonObject
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return doc, 0o600, nil
	}
	if err != nil {
		return doc, 0, err
	}
	fi, err := os.Stat(path)
	if err != nil {
		return doc, 0, err
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return doc, fi.Mode().Perm(), nil
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		// VS Code allows comments in its files; rewriting would lose them.
		return doc, 0, fmt.Errorf("%s is not a plain JSON object (%v): nothing written; add the entry by hand", path, err)
	}
	return doc, fi.Mode().Perm(), nil
}

// mergeInputs adds VS Code input prompts that the file lacks, by id.
func mergeInputs(doc *jsonObject, add []vscodeInput) error {
	if len(add) == 0 {
		return nil
	}
	var inputs []json.RawMessage
	if raw, ok := doc.get("inputs"); ok {
		if err := json.Unmarshal(raw, &inputs); err != nil {
			return fmt.Errorf(`"inputs" is not a list: %w`, err)
		}
	}
	have := map[string]bool{}
	for _, in := range inputs {
		var v struct {
			ID string `json:"id"`
		}
		json.Unmarshal(in, &v)
		have[v.ID] = true
	}
	for _, in := range add {
		if !have[in.ID] {
			raw, err := json.Marshal(in)
			if err != nil {
				return err
			}
			inputs = append(inputs, raw)
		}
	}
	raw, err := json.Marshal(inputs)
	doc.set("inputs", raw)
	return err
}

// backupFile copies path aside as path.bak-<UTC time>; nothing to back up
// is no error.
func backupFile(path string) (string, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	// Never over an older backup: two writes within a second keep both.
	stamp := path + ".bak-" + time.Now().UTC().Format("20060102T150405Z")
	for n := 1; ; n++ {
		backup := stamp
		if n > 1 {
			backup = fmt.Sprintf("%s-%d", stamp, n)
		}
		f, err := os.OpenFile(backup, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return "", fmt.Errorf("back up %s: %w", path, err)
		}
		if _, err := f.Write(data); err != nil {
			f.Close()
			return "", fmt.Errorf("back up %s: %w", path, err)
		}
		return backup, f.Close()
	}
}

// writeAtomic replaces path by a new file, so that a client never reads
// half of one.
func writeAtomic(path string, data []byte, mode fs.FileMode) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".new-*")
	if err != nil {
		return err
	}
	defer os.Remove(f.Name())
	if _, err := f.Write(data); err != nil {
		f.Close()
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := f.Chmod(mode); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(f.Name(), path)
}
