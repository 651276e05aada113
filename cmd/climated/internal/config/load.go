package config

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/climated/climated/sensors/field"
)

// Load is how every command reads its configuration: cfg (the
// defaults, or what the command starts from), then the YAML file at path
// when there is one, then set (the command's flags; nil for none), then one
// validation. A file that cannot be read is an error as os.ReadFile gives
// it; every other error is a *configError, each field error located in the
// file.
func Load(path string, cfg Config, set func(*Config)) (Config, error) {
	var data []byte
	if path != "" {
		var err error
		if data, err = os.ReadFile(path); err != nil {
			return cfg, fmt.Errorf("config: %w", err)
		}
	}
	return parseConfig(path, data, cfg, set)
}

// Check is Load of data as the file at path, over the
// defaults, for config check and the tests.
func Check(path string, data []byte) (Config, error) {
	return parseConfig(path, data, Default(), nil)
}

func parseConfig(path string, data []byte, cfg Config, set func(*Config)) (Config, error) {
	if path != "" {
		if err := decodeConfig(path, data, &cfg); err != nil {
			return cfg, err
		}
	}
	if set != nil {
		set(&cfg)
	}
	if err := cfg.validate(); err != nil {
		return cfg, located(path, data, field.All(err))
	}
	return cfg, nil
}

// decodeConfig decodes data over cfg. Unknown keys are errors, and every
// error names the key, its line and what it takes.
func decodeConfig(path string, data []byte, cfg *Config) error {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(cfg); err != nil && !errors.Is(err, io.EOF) {
		return &configError{file: path, errs: decodeErrors(data, err)}
	}
	cfg.File = path
	return nil
}

// configError is what is wrong with a configuration, one field error a
// line: FILE:LINE: message (the message names the field).
type configError struct {
	file string // "" when the configuration came from flags alone
	errs []*field.Error
}

func (e *configError) Error() string {
	lines := make([]string, len(e.errs))
	for i, fe := range e.errs {
		switch {
		case e.file == "":
			lines[i] = fe.Error()
		case fe.Line == 0:
			lines[i] = e.file + ": " + fe.Error()
		default:
			lines[i] = fmt.Sprintf("%s:%d: %s", e.file, fe.Line, fe.Error())
		}
	}
	return strings.Join(lines, "\n")
}

// Unwrap gives the field errors, for errors.As.
func (e *configError) Unwrap() []error {
	out := make([]error, len(e.errs))
	for i, fe := range e.errs {
		out[i] = fe
	}
	return out
}

// located puts each field error at the line of its key in data (the
// nearest key of its path that the file has; line 1 when none).
func located(path string, data []byte, errs []*field.Error) error {
	var root yaml.Node
	top := (*yaml.Node)(nil)
	if yaml.Unmarshal(data, &root) == nil && len(root.Content) > 0 {
		top = root.Content[0]
	}
	out := make([]*field.Error, len(errs))
	for i, fe := range errs {
		line := 0
		if top != nil {
			line = deepest(top, splitPath(fe.Path), 1)
		}
		out[i] = fe.Located(line)
	}
	return &configError{file: path, errs: out}
}

// splitPath cuts mqtt.subscriptions[2].topic into its keys and indexes.
func splitPath(p string) []string {
	return strings.FieldsFunc(p, func(r rune) bool { return r == '.' || r == '[' || r == ']' })
}

// deepest walks path (keys and indexes) from n and returns the line of the
// last node it reaches.
func deepest(n *yaml.Node, path []string, line int) int {
	for _, p := range path {
		var next *yaml.Node
		switch n.Kind {
		case yaml.MappingNode:
			for i := 0; i+1 < len(n.Content); i += 2 {
				if n.Content[i].Value == p {
					line, next = n.Content[i].Line, n.Content[i+1]
				}
			}
		case yaml.SequenceNode:
			if i, err := strconv.Atoi(p); err == nil && i < len(n.Content) {
				next = n.Content[i]
				line = next.Line
			}
		}
		if next == nil {
			break
		}
		n = next
	}
	return line
}
