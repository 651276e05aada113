// Command sdwrites is the house of scripts/sdwrites.sh: zones devices,
// each publishing one zigbee2mqtt state a minute (temperature, humidity,
// battery and linkquality: four readings) to a broker, their minutes
// spread evenly, until the duration ends. It prints the number of
// messages the broker acknowledged. With -seed it writes the house's
// past readings into a new database instead (seed).
package main

import (
	"flag"
	"fmt"
	"math"
	"os"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"
)

func main() {
	broker := flag.String("broker", "tcp://127.0.0.1:1883", "broker URL")
	zones := flag.Int("zones", 20, "devices, one zone each")
	every := flag.Duration("every", time.Minute, "each device's period")
	duration := flag.Duration("duration", 30*time.Minute, "how long to publish")
	qos := flag.Int("qos", 1, "QoS of the messages (zigbee2mqtt's default is 0; 1 is the hub's costlier path)")
	seedDB := flag.String("seed", "", "write the house's past readings into this new database, as far back as puts the hub's first move into raw and the rollups in the middle of -duration, and publish nothing")
	flag.Parse()
	var n int
	var err error
	if *seedDB != "" {
		n, err = seed(*seedDB, *zones, moveAge-*duration/2)
	} else {
		n, err = run(*broker, *zones, *every, *duration, byte(*qos))
	}
	fmt.Println(n)
	if err != nil {
		fmt.Fprintln(os.Stderr, "sdwrites:", err)
		os.Exit(1)
	}
}

func run(broker string, zones int, every, duration time.Duration, qos byte) (int, error) {
	o := paho.NewClientOptions().AddBroker(broker).SetClientID("sdwrites").SetCleanSession(true)
	c := paho.NewClient(o)
	if t := c.Connect(); !t.WaitTimeout(10*time.Second) || t.Error() != nil {
		return 0, fmt.Errorf("connect to %s: %v", broker, t.Error())
	}
	defer c.Disconnect(250)
	start := time.Now()
	step := every / time.Duration(zones)
	sent := 0
	for k := 0; ; k++ {
		at := start.Add(time.Duration(k) * step)
		if at.Sub(start) >= duration {
			return sent, nil
		}
		time.Sleep(time.Until(at))
		zone, round := k%zones, k/zones
		t := c.Publish(fmt.Sprintf("zigbee2mqtt/room_%02d", zone), qos, false, payload(zone, round))
		if !t.WaitTimeout(10*time.Second) || t.Error() != nil {
			return sent, fmt.Errorf("publish: %v", t.Error())
		}
		sent++
	}
}

// payload is device i's round-th state: values that change every minute,
// as a real room's do at the catalogue's resolution.
func payload(i, round int) []byte {
	x := float64(round)/30 + float64(i)
	temp := math.Round((20+2*math.Sin(x))*100) / 100
	hum := math.Round((50+10*math.Cos(x/2))*10) / 10
	return fmt.Appendf(nil, `{"temperature":%.2f,"humidity":%.1f,"battery":%d,"linkquality":%d}`,
		temp, hum, 100-round/600, 120+(round*7+i)%60)
}
