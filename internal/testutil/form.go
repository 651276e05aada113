package testutil

import (
	"bytes"
	"encoding/json"
	"net/url"
	"os"
	"testing"
)

// FormFromJSON reads a form kept as a JSON object of its fields (as
// ecowitt2mqtt keeps weather stations' uploads): strings as they are,
// numbers as written.
func FormFromJSON(t testing.TB, path string) url.Values {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	var m map[string]any
	if err := d.Decode(&m); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	form := url.Values{}
	for k, v := range m {
		switch v := v.(type) {
		case json.Number:
			form.Set(k, v.String())
		case string:
			form.Set(k, v)
		}
	}
	return form
}
