package chromium

import (
	"fmt"
	"strings"
	"sync"

	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
)

// Problems records what went wrong in a tab (chromedp.Listen its Event):
// console errors, uncaught exceptions, the log's errors, failed requests
// and HTTP errors; and the bytes transferred, compressed as sent.
type Problems struct {
	mu    sync.Mutex
	list  []string
	bytes int64
}

// Event notes ev where it is a problem.
func (p *Problems) Event(ev any) {
	p.mu.Lock()
	defer p.mu.Unlock()
	switch ev := ev.(type) {
	case *runtime.EventConsoleAPICalled:
		if ev.Type == runtime.ConsoleAPICalledTypeError {
			var args []string
			for _, a := range ev.Args {
				args = append(args, string(a.Value)+a.Description)
			}
			p.list = append(p.list, "console.error: "+strings.Join(args, " "))
		}
	case *runtime.EventExceptionThrown:
		p.list = append(p.list, "exception: "+ev.ExceptionDetails.Text+" "+describe(ev.ExceptionDetails.Exception))
	case *log.EventEntryAdded:
		if ev.Entry.Level == log.EntryLevelError {
			p.list = append(p.list, fmt.Sprintf("log error: %s %s", ev.Entry.Text, ev.Entry.URL))
		}
	case *network.EventLoadingFailed:
		if !ev.Canceled {
			p.list = append(p.list, "request failed: "+ev.ErrorText)
		}
	case *network.EventResponseReceived:
		if ev.Response.Status >= 400 {
			p.list = append(p.list, fmt.Sprintf("HTTP %d: %s", ev.Response.Status, ev.Response.URL))
		}
	case *network.EventLoadingFinished:
		p.bytes += int64(ev.EncodedDataLength)
	}
}

func describe(o *runtime.RemoteObject) string {
	if o == nil {
		return ""
	}
	return o.Description
}

// Take returns the problems noted so far and forgets them.
func (p *Problems) Take() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := p.list
	p.list = nil
	return out
}

// Forgive forgets the problems that end in " "+url: the response of a
// page whose error status the test expects, and the log's line of it.
func (p *Problems) Forgive(url string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	var others []string
	for _, s := range p.list {
		if !strings.HasSuffix(s, " "+url) {
			others = append(others, s)
		}
	}
	p.list = others
}

// Transferred is the bytes received so far, compressed as sent.
func (p *Problems) Transferred() int64 {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.bytes
}
