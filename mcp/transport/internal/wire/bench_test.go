package wire

import "testing"

// BenchmarkFront is what this package adds to a get_climate call with a
// progress token, as perf.sh sends it: the body read once, its calls
// counted, its method checked and its id looked at.
func BenchmarkFront(b *testing.B) {
	body := []byte(`{"jsonrpc":"2.0","id":100000123,"method":"tools/call","params":{"name":"get_climate","arguments":{},"_meta":{"progressToken":100000123}}}`)
	b.ReportAllocs()
	for b.Loop() {
		var ids IDs
		msgs, err := Parse(body)
		if err != nil || msgs.Calls() != 1 || !Known(msgs.Msgs[0].Method) {
			b.Fatal(err)
		}
		if _, changed, err := ids.SwapBody(msgs); changed || err != nil {
			b.Fatal(changed, err)
		}
	}
}

// FuzzParse: no body makes Parse panic, and what it reads keeps its bytes.
func FuzzParse(f *testing.F) {
	for _, s := range []string{`{"jsonrpc":"2.0","id":1,"method":"ping"}`, `[{"id":1.5,"method":"x"},{"method":"y"}]`, `[]`, `{"id":`, `"x"`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		body, err := Parse(data)
		if err != nil {
			return
		}
		var ids IDs
		swapped, _, err := ids.SwapBody(body)
		if err == nil && len(swapped.Bytes()) == 0 {
			t.Errorf("%q: empty after the swap", data)
		}
	})
}
