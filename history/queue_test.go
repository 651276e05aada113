package history

import (
	"fmt"
	"reflect"
	"slices"
	"testing"

	"github.com/climated/climated/sensors"
)

func readingsN(n int) []sensors.Reading { return make([]sensors.Reading, n) }

// TestQueueTransactions: transactions take whole calls up to the size, a
// larger call alone, and the marks of exactly the calls they write; what
// the bound drops takes the marks of calls that lost every reading, and
// keeps those of calls that lost some.
func TestQueueTransactions(t *testing.T) {
	var q queue
	for i, n := range []int{30, 50, 40, 250, 10, 10} {
		mark := ""
		if i != 1 {
			mark = fmt.Sprintf("m%d", i)
		}
		q.add(sensors.Batch{Readings: readingsN(n), Mark: mark})
	}
	type tx struct {
		end   int
		marks []string
	}
	var got []tx
	for ci := 0; ci < len(q.calls); {
		end, n, next := q.txFrom(ci, 100)
		got = append(got, tx{end, n.marks})
		ci = next
	}
	want := []tx{{80, []string{"m0"}}, {120, []string{"m2"}}, {370, []string{"m3"}}, {390, []string{"m4", "m5"}}}
	if !slices.EqualFunc(got, want, func(a, b tx) bool { return a.end == b.end && slices.Equal(a.marks, b.marks) }) {
		t.Errorf("transactions %v, want %v", got, want)
	}

	// The bound drops the first 100: calls 0 and 1 entirely, 20 of call 2.
	q.dropFront(100)
	if len(q.rs) != 290 || len(q.calls) != 4 || !reflect.DeepEqual(q.calls[0], call{20, "m2", nil}) || !reflect.DeepEqual(q.calls[3], call{290, "m5", nil}) {
		t.Errorf("after dropping 100: %d readings, calls %v", len(q.rs), q.calls)
	}
	if end, n, _ := q.txFrom(0, 100); end != 20 || !slices.Equal(n.marks, []string{"m2"}) {
		t.Errorf("first transaction after the drop: %d %v, want 20 [m2]", end, n.marks)
	}
	q.reset()
	if len(q.rs) != 0 || len(q.calls) != 0 {
		t.Errorf("reset left %d readings, %d calls", len(q.rs), len(q.calls))
	}
}
