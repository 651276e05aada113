package ingest

import (
	"fmt"
	"strings"

	"github.com/climated/climated/mqtt/decode"
)

// hubAvailable applies another hub's availability (its <prefix>/status:
// offline from a clean stop or from its last will) to every zone its
// states fed through mapping, at once: its zones carry the error until it
// is back, rather than looking fine until they go stale.
func (in *Ingest) hubAvailable(item inbound, prefix string, a decode.Availability, b *batch) {
	in.stats.decoded.Add(1)
	offline := fmt.Errorf("hub %s: %w", prefix, errOffline)
	for key, d := range in.devices {
		if key.mapping != item.mapping || !strings.HasPrefix(d.lastTopic, prefix+"/") {
			continue
		}
		d.availableAs(a, offline, item.at)
		b.touch(d)
	}
	if a == decode.Offline {
		in.log.Warn("mqtt: another hub is offline; its zones carry the error until it is back",
			"hub", prefix, "topic", item.msg.Topic)
	}
}
