package config

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/climated/climated/internal/testutil"
)

// readmeExample is the README's example configuration, kept as a file so
// that it cannot drift: the README must show it verbatim.
var readmeExample = filepath.Join("..", "..", "..", "..", "testdata", "mqtt-example.yaml")

func TestReadmeExampleIsTheFile(t *testing.T) {
	example, err := os.ReadFile(readmeExample)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(testutil.Doc(t, "docs/mqtt.md"), "```yaml\n"+string(example)) {
		t.Errorf("docs/mqtt.md does not show %s verbatim in a yaml block", readmeExample)
	}
	var file struct {
		MQTT MQTT `yaml:"mqtt"`
	}
	dec := yaml.NewDecoder(bytes.NewReader(example))
	dec.KnownFields(true)
	if err := dec.Decode(&file); err != nil {
		t.Fatalf("%s: %v", readmeExample, err)
	}
	file.MQTT.Options.LookupEnv = func(string) (string, bool) { return "secret", true }
	if err := file.MQTT.Validate(); err != nil {
		t.Fatalf("%s: %v", readmeExample, err)
	}
}
