package main

import (
	"bytes"
	_ "embed"
	"errors"
	"fmt"
	"io"
	"os"
	"regexp"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// The annotated example of every key, and the starter file that the
// package and install.sh put in /etc/climated.
var (
	//go:embed example.yaml
	exampleYAML []byte
	//go:embed starter.yaml
	starterYAML []byte
)

// DefaultConfigFile is where the service reads its configuration.
const DefaultConfigFile = "/etc/climated/climated.yaml"

// runConfig is `climated config check [FILE]` and `climated config example [--starter]`.
func runConfig(args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		fmt.Fprint(stderr, usageLine("config"))
		return errUsage
	}
	switch args[0] {
	case "-h", "-help", "--help", "help":
		return printHelp(stdout, "config", nil)
	case "example":
		fs := newFlagSet("config example", stderr)
		starter := fs.Bool("starter", false, "print the short starter file instead")
		if err := parseFlags(fs, args[1:], stdout, stderr); err != nil {
			return err
		}
		if *starter {
			_, err := stdout.Write(starterYAML)
			return err
		}
		_, err := stdout.Write(exampleYAML)
		return err
	case "check":
		if wantsHelp(args[1:]) {
			return printHelp(stdout, "config check", nil)
		}
		if len(args) > 2 {
			fmt.Fprintf(stderr, "climated config check: one file at a time, not %q\n%s", args[2:], usageLine("config check"))
			return errUsage
		}
		path := DefaultConfigFile
		if len(args) > 1 {
			path = args[1]
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return fmt.Errorf("config: %w", err)
		}
		cfg, err := checkConfig(path, data)
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "%s: ok (%s)\n", path, summary(cfg))
		return nil
	}
	fmt.Fprintf(stderr, "climated config: unknown subcommand %q: want check or example\n%s", args[0], usageLine("config"))
	return errUsage
}

// checkConfig decodes and validates data, with errors located in the file.
func checkConfig(path string, data []byte) (Config, error) {
	cfg := defaultConfig()
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&cfg); err != nil && !errors.Is(err, io.EOF) {
		return cfg, fmt.Errorf("%s", decodeError(path, data, err))
	}
	if err := cfg.validate(); err != nil {
		return cfg, fmt.Errorf("%s:%s", path, locate(data, err))
	}
	return cfg, nil
}

var yamlLine = regexp.MustCompile(`line (\d+): `)

// decodeError rewrites yaml's messages as FILE:LINE: what was wrong, one
// per line, naming the key, the value given and what it takes.
func decodeError(path string, data []byte, err error) string {
	var all []pair
	var root yaml.Node
	if yaml.Unmarshal(data, &root) == nil {
		all = pairs(&root, "", nil, nil)
	}
	msg := strings.TrimPrefix(err.Error(), "yaml: unmarshal errors:\n")
	var out []string
	for _, line := range strings.Split(msg, "\n") {
		line = strings.TrimPrefix(strings.TrimSpace(line), "yaml: ")
		if line == "" {
			continue
		}
		if explained, ok := explainDecodeLine(all, line); ok {
			line = path + ":" + explained
		} else if m := yamlLine.FindStringSubmatch(line); m != nil {
			line = path + ":" + m[1] + ": " + strings.Replace(line, m[0], "", 1)
		} else {
			line = path + ": " + line
		}
		out = append(out, line)
	}
	return strings.Join(out, "\n")
}

var fieldPath = regexp.MustCompile(`^[a-z_][a-z0-9_]*(\[\d+\])?(\.[a-z_][a-z0-9_]*(\[\d+\])?)*`)

// locate prefixes a validation error with the line of the key it names
// (its message starts with a path such as sensors[1].address or
// "mqtt: subscriptions[0].topic"), or line 1 when no key matches.
func locate(data []byte, err error) string {
	var root yaml.Node
	line := 1
	if yaml.Unmarshal(data, &root) == nil && len(root.Content) > 0 {
		var path []string
		for _, seg := range strings.Split(err.Error(), ": ") {
			p := fieldPath.FindString(seg)
			if p == "" {
				break
			}
			path = append(path, strings.FieldsFunc(p, func(r rune) bool { return r == '.' || r == '[' || r == ']' })...)
		}
		line = deepest(root.Content[0], path, line)
	}
	return fmt.Sprintf("%d: %v", line, err)
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

// summary says in a few words what a configuration sets up.
func summary(c Config) string {
	var parts []string
	parts = append(parts, "listen "+c.Listen)
	if n := len(c.HW.Sensors); n > 0 {
		parts = append(parts, plural(n, "sensor"))
	}
	if c.RainGauge != nil {
		parts = append(parts, "rain gauge on "+c.RainGauge.Pin)
	}
	if c.MQTT != nil {
		parts = append(parts, fmt.Sprintf("MQTT %s with %s", c.MQTT.Options.Broker, plural(len(c.MQTT.Subscriptions), "subscription")))
	}
	if len(c.HW.Sensors) == 0 && c.RainGauge == nil && c.MQTT == nil {
		parts = append(parts, "no sensors: scan the I²C bus, else the demo house")
	}
	return strings.Join(parts, ", ")
}

// plural is "1 sensor", "2 sensors".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
