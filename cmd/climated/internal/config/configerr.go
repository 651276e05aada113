package config

import (
	"fmt"
	"reflect"
	"regexp"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/climated/climated/sensors/field"
)

// What yaml's decoder says, taken apart so that the message can be said
// in the file's own terms: the key, the value, what was wanted.
var (
	typeMismatch = regexp.MustCompile("^line (\\d+): cannot unmarshal !!(\\w+)(?: `.*`)? into (\\S+)$")
	keyNotFound  = regexp.MustCompile(`^line (\d+): field (\S+) not found in type \S+$`)
)

var yamlLine = regexp.MustCompile(`line (\d+): `)

// decodeErrors turns yaml's messages into field errors, one per message,
// naming the key, the value given and what it takes: yaml.v3 gives its
// errors only as text ("line 3: cannot unmarshal …"), so that text is read.
func decodeErrors(data []byte, err error) []*field.Error {
	var all []pair
	var root yaml.Node
	if yaml.Unmarshal(data, &root) == nil {
		all = pairs(&root, "", nil, nil)
	}
	msg := strings.TrimPrefix(err.Error(), "yaml: unmarshal errors:\n")
	var out []*field.Error
	for _, line := range strings.Split(msg, "\n") {
		line = strings.TrimPrefix(strings.TrimSpace(line), "yaml: ")
		if line == "" {
			continue
		}
		if fe := explainDecodeLine(all, line); fe != nil {
			out = append(out, fe)
		} else if m := yamlLine.FindStringSubmatch(line); m != nil {
			n, _ := strconv.Atoi(m[1])
			out = append(out, field.At("", n, strings.Replace(line, m[0], "", 1)))
		} else {
			out = append(out, field.At("", 0, line))
		}
	}
	return out
}

// pair is one key of the file with its value, and where it sits.
type pair struct {
	path  string // demo.interval, sensors[0].chip
	keys  []string
	key   *yaml.Node
	value *yaml.Node
}

// pairs lists every key of the document, depth first.
func pairs(n *yaml.Node, path string, keys []string, out []pair) []pair {
	switch n.Kind {
	case yaml.DocumentNode:
		for _, c := range n.Content {
			out = pairs(c, path, keys, out)
		}
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			p := k.Value
			if path != "" {
				p = path + "." + k.Value
			}
			ks := append(append([]string{}, keys...), k.Value)
			out = append(out, pair{path: p, keys: ks, key: k, value: v})
			out = pairs(v, p, ks, out)
		}
	case yaml.SequenceNode:
		for i, c := range n.Content {
			out = pairs(c, fmt.Sprintf("%s[%d]", path, i), keys, out)
		}
	}
	return out
}

// explainDecodeLine rewrites one of yaml's messages as the error of the
// key it is about; nil for a message it does not know, which is then kept
// as it is.
func explainDecodeLine(all []pair, line string) *field.Error {
	if m := typeMismatch.FindStringSubmatch(line); m != nil {
		n, _ := strconv.Atoi(m[1])
		p, found := valueAt(all, n)
		if !found {
			return nil
		}
		want, example := wanted(m[3], p)
		return field.At(p.path, n, fmt.Sprintf("%s: %s is not %s: write it as %s: %s", p.path, given(p.value), want, p.key.Value, example))
	}
	if m := keyNotFound.FindStringSubmatch(line); m != nil {
		n, _ := strconv.Atoi(m[1])
		for _, p := range all {
			if p.key.Line == n && p.key.Value == m[2] {
				msg := "unknown key " + p.path
				if s := closest(m[2], knownKeys(typeAt(reflect.TypeOf(Config{}), p.keys[:len(p.keys)-1]))); s != "" {
					msg += ": did you mean " + s + "?"
				}
				return field.At(p.path, n, msg)
			}
		}
		return field.At(m[2], n, "unknown key "+m[2])
	}
	return nil
}

// valueAt is the key whose value yaml found on line n: the last one, as
// a block value starts on the line after its key.
func valueAt(all []pair, n int) (pair, bool) {
	var found pair
	ok := false
	for _, p := range all {
		if p.value.Line == n {
			found, ok = p, true
		}
	}
	return found, ok
}

// given is the value as the user wrote it.
func given(v *yaml.Node) string {
	switch v.Kind {
	case yaml.SequenceNode:
		return "a list"
	case yaml.MappingNode:
		return "a group of keys"
	}
	return strconv.Quote(v.Value)
}

// wanted says what a Go type takes, with an example value for the key.
func wanted(goType string, p pair) (what, example string) {
	switch {
	case goType == "bool":
		return "true or false", "true"
	case goType == "time.Duration":
		if _, err := strconv.Atoi(p.value.Value); err == nil {
			return "a duration", p.value.Value + "s"
		}
		return "a duration (a number and a unit: 90s, 5m, 1h)", "30s"
	case strings.HasPrefix(goType, "int"), strings.HasPrefix(goType, "uint"):
		return "a whole number", "1"
	case strings.HasPrefix(goType, "float"):
		return "a number", "12.5"
	case goType == "string":
		return "text", `"some text"`
	case strings.HasPrefix(goType, "[]"):
		if p.value.Kind == yaml.ScalarNode {
			return "a list", "[" + p.value.Value + "]"
		}
		return "a list", "[a, b]"
	case strings.HasPrefix(goType, "map["):
		return "a group of keys", "{name: value}"
	}
	return "what " + p.key.Value + " takes (see climated config example)", "…"
}

// typeAt follows yaml keys from t to the type of the mapping they name.
func typeAt(t reflect.Type, keys []string) reflect.Type {
	for _, k := range keys {
		t = elem(t)
		if t.Kind() != reflect.Struct {
			return t
		}
		f, ok := fieldByKey(t, k)
		if !ok {
			return t
		}
		t = f
	}
	return elem(t)
}

func elem(t reflect.Type) reflect.Type {
	for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice {
		t = t.Elem()
	}
	return t
}

func fieldByKey(t reflect.Type, key string) (reflect.Type, bool) {
	for i := range t.NumField() {
		f := t.Field(i)
		name, opts, _ := strings.Cut(f.Tag.Get("yaml"), ",")
		if !f.IsExported() || name == "-" {
			continue
		}
		if strings.Contains(opts, "inline") {
			if ft, ok := fieldByKey(elem(f.Type), key); ok {
				return ft, true
			}
		} else if name == key {
			return f.Type, true
		}
	}
	return nil, false
}

// knownKeys lists the keys a struct type reads, following inline fields.
func knownKeys(t reflect.Type) []string {
	if t.Kind() != reflect.Struct {
		return nil
	}
	var keys []string
	for i := range t.NumField() {
		f := t.Field(i)
		name, opts, _ := strings.Cut(f.Tag.Get("yaml"), ",")
		switch {
		case name == "-" || !f.IsExported():
		case strings.Contains(opts, "inline"):
			keys = append(keys, knownKeys(elem(f.Type))...)
		case name != "":
			keys = append(keys, name)
		}
	}
	return keys
}

// closest is the known key a misspelling most likely meant, or "" when
// none is near enough to be a fair guess.
func closest(key string, known []string) string {
	best, bestD := "", min(2, max(1, len(key)/3))+1
	for _, k := range known {
		if d := editDistance(key, k); d < bestD {
			best, bestD = k, d
		}
	}
	return best
}

// editDistance counts insertions, deletions, substitutions and swaps of
// neighbours (optimal string alignment).
func editDistance(a, b string) int {
	d := make([][]int, len(a)+1)
	for i := range d {
		d[i] = make([]int, len(b)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(a)][len(b)]
}
