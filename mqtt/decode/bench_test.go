package decode

import (
	"path/filepath"
	"testing"
)

// BenchmarkDecode decodes each format's recorded payloads in turn.
func BenchmarkDecode(b *testing.B) {
	fields := map[string][]Field{Generic: stationFields}
	for _, format := range Formats() {
		b.Run(format, func(b *testing.B) {
			dec, err := New(format, fields[format])
			if err != nil {
				b.Fatal(err)
			}
			files, _ := filepath.Glob(filepath.Join("testdata", format, "*.msg"))
			type msg struct {
				topic   string
				payload []byte
			}
			var msgs []msg
			for _, f := range files {
				topic, payload := loadMsg(b, f)
				msgs = append(msgs, msg{topic, payload})
			}
			b.ReportAllocs()
			b.ResetTimer()
			for i := range b.N {
				m := msgs[i%len(msgs)]
				dec.Decode(m.topic, m.payload)
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "payloads/s")
		})
	}
}
