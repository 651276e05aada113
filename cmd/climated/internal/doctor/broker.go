package doctor

import (
	"bufio"
	"fmt"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// mosquittoConf is Debian's configuration of the local mosquitto.
const mosquittoConf = "/etc/mosquitto/mosquitto.conf"

// brokerLimitFix is what to add to the local mosquitto.
const brokerLimitFix = "add 'message_size_limit 1048576' to /etc/mosquitto/conf.d/climated.conf and restart mosquitto (systemctl restart mosquitto)"

// checkBrokerLimit looks, for a broker on this machine, at the local
// mosquitto's configuration (conf and its include_dir): without
// message_size_limit (or max_packet_size) it takes and forwards messages
// of up to 256 MB, which it holds in memory, on the same small machine as
// the hub. Nothing is said of a broker elsewhere, or without the file.
func checkBrokerLimit(broker, conf string) []Finding {
	if !loopbackBroker(broker) {
		return nil
	}
	limit, where, err := mosquittoLimit(conf)
	switch {
	case os.IsNotExist(err):
		return nil
	case err != nil:
		return []Finding{{Check: "broker", Status: StatusWarn, Detail: fmt.Sprintf("cannot read the local mosquitto's configuration to check its message size limit: %v", err), Fix: "run climated doctor as root (sudo) to check it"}}
	case limit == 0:
		return []Finding{{Check: "broker", Status: StatusWarn,
			Detail: fmt.Sprintf("the local mosquitto (%s) sets no message_size_limit: it accepts messages of up to 256 MB and holds each in memory (the hub reads at most max_payload of one)", conf),
			Fix:    brokerLimitFix}}
	}
	return []Finding{{Check: "broker", Status: StatusOK, Detail: fmt.Sprintf("the local mosquitto limits messages to %d bytes (%s)", limit, where)}}
}

// loopbackBroker reports whether the broker URL names this machine.
func loopbackBroker(broker string) bool {
	u, err := url.Parse(broker)
	if err != nil {
		return false
	}
	h := u.Hostname()
	if h == "localhost" {
		return true
	}
	ip := net.ParseIP(h)
	return ip != nil && ip.IsLoopback()
}

// mosquittoLimit reads conf and the files of its include_dir (*.conf, in
// order, as mosquitto does) and returns the message_size_limit or
// max_packet_size in force (the last one set; 0 for none) and the file
// that sets it.
func mosquittoLimit(conf string) (limit int64, where string, err error) {
	files := []string{conf}
	for i := 0; i < len(files); i++ {
		dirs, l, w, err := readMosquittoConf(files[i])
		if err != nil && (i == 0 || !os.IsNotExist(err)) {
			return 0, "", err
		}
		if w != "" {
			limit, where = l, w
		}
		for _, d := range dirs {
			more, _ := filepath.Glob(filepath.Join(d, "*.conf"))
			sort.Strings(more)
			files = append(files, more...)
		}
	}
	return limit, where, nil
}

// readMosquittoConf returns the include_dir lines of one file and the
// last size limit it sets (where is "" when it sets none).
func readMosquittoConf(name string) (dirs []string, limit int64, where string, err error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, 0, "", err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) < 2 || strings.HasPrefix(fields[0], "#") {
			continue
		}
		switch fields[0] {
		case "include_dir":
			dirs = append(dirs, fields[1])
		case "message_size_limit", "max_packet_size":
			if n, err := strconv.ParseInt(fields[1], 10, 64); err == nil {
				limit, where = n, name
			}
		}
	}
	return dirs, limit, where, sc.Err()
}
