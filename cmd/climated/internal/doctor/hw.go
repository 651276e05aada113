package doctor

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/climated/climated/cmd/climated/internal/config"
	"github.com/climated/climated/sensors"
	"github.com/climated/climated/sensors/hw"
	"github.com/climated/climated/sensors/raingauge"
)

// The doctor's hardware checks: the I²C bus, each sensor, the GPIO pin.

// i2cBuses are the I²C buses the hub will open: those of its sensors, or
// the default bus it scans when nothing is configured.
func i2cBuses(cfg config.Config) []string {
	def := cmp.Or(cfg.HW.Bus, hw.DefaultBus)
	if len(cfg.HW.Sensors) == 0 {
		if !cfg.NamesSource() {
			return []string{def}
		}
		return nil
	}
	var buses []string
	for _, s := range cfg.HW.Sensors {
		b := cmp.Or(s.Bus, def)
		if b != "w1" && s.Chip != "wifi" && !slices.Contains(buses, b) {
			buses = append(buses, b)
		}
	}
	return buses
}

func checkI2C(ctx context.Context, cfg config.Config, env Env) []Finding {
	buses := i2cBuses(cfg)
	if len(buses) == 0 {
		return []Finding{{Check: "i2c", Status: StatusSkip, Detail: "no I²C sensors configured"}}
	}
	open := env.OpenBus
	if open == nil {
		open = hw.OpenBus
	}
	var out []Finding
	for _, bus := range buses {
		b, err := open(bus)
		if err != nil {
			f := Finding{Check: "i2c", Status: StatusFail, Detail: busProblem(bus, err), Fix: busFix(err)}
			if len(cfg.HW.Sensors) == 0 {
				// Nothing configured: the hub runs the demo house instead.
				f.Status, f.Detail = StatusWarn, f.Detail+" (without it the hub runs the demo house)"
			}
			out = append(out, f)
			continue
		}
		found, err := hw.Scan(ctx, b, bus)
		b.Close()
		switch {
		case err != nil:
			out = append(out, Finding{Check: "i2c", Status: StatusFail, Detail: fmt.Sprintf("bus %s opens, a scan fails: %v", bus, err), Fix: "check the wiring (SDA to pin 3, SCL to pin 5, 3.3 V, ground)"})
		case len(found) == 0:
			out = append(out, Finding{Check: "i2c", Status: StatusWarn, Detail: fmt.Sprintf("bus %s opens, no known chip answers", bus), Fix: "check the wiring and power of the sensors; climated scan --bus " + bus})
		default:
			names := make([]string, len(found))
			for i, f := range found {
				names[i] = fmt.Sprint(f)
			}
			out = append(out, Finding{Check: "i2c", Status: StatusOK, Detail: fmt.Sprintf("bus %s: %s", bus, strings.Join(names, "; "))})
		}
	}
	return out
}

// busProblem is what is wrong with a bus, short: the fix is said apart.
func busProblem(bus string, err error) string {
	for _, kind := range []error{hw.ErrNoBus, hw.ErrPermission} {
		if errors.Is(err, kind) {
			return fmt.Sprintf("/dev/i2c-%s: %v", strings.TrimPrefix(bus, "/dev/i2c-"), kind)
		}
	}
	return err.Error()
}

// busFix says what to do about a bus that does not open.
func busFix(err error) string {
	switch {
	case errors.Is(err, hw.ErrNoBus):
		return "enable I²C: sudo raspi-config nonint do_i2c 0 (or dtparam=i2c_arm=on in /boot/firmware/config.txt), then reboot"
	case errors.Is(err, hw.ErrPermission):
		return "let the service's user use the bus: sudo usermod -aG i2c climated (the unit sets SupplementaryGroups=i2c)"
	}
	return "see the error; climated scan tries the bus by itself"
}

// checkSensors reads each configured sensor once: every one must answer
// with a value in its measurement's plausible range (hw refuses others).
func checkSensors(ctx context.Context, cfg config.Config, env Env) []Finding {
	if len(cfg.HW.Sensors) == 0 {
		detail := "no sensors configured (the hub scans the bus at start)"
		if cfg.NamesSource() {
			detail = "no I²C sensors configured"
		}
		return []Finding{{Check: "sensors", Status: StatusSkip, Detail: detail}}
	}
	src, err := hw.New(cfg.HW, &hw.Options{Open: env.OpenBus})
	if err != nil {
		return []Finding{{Check: "sensors", Status: StatusFail, Detail: err.Error(), Fix: "correct sensors: in the configuration (climated config check)"}}
	}
	rs, readErr := src.ReadOnce(ctx)
	var out []Finding
	bySource := map[string][]sensors.Reading{}
	var order []string
	for _, r := range rs {
		if _, ok := bySource[r.Source]; !ok {
			order = append(order, r.Source)
		}
		bySource[r.Source] = append(bySource[r.Source], r)
	}
	for _, s := range order {
		var vals []string
		for _, r := range bySource[s] {
			info, _ := sensors.Lookup(r.Measurement)
			vals = append(vals, fmt.Sprintf("%s %.*f %s", r.Measurement, info.Decimals, r.Value, info.Unit))
		}
		out = append(out, Finding{Check: "sensors", Status: StatusOK, Detail: fmt.Sprintf("%s (%s): %s", s, bySource[s][0].Zone, strings.TrimSpace(strings.Join(vals, ", ")))})
	}
	if readErr != nil {
		errs := []error{readErr}
		if j, ok := readErr.(interface{ Unwrap() []error }); ok {
			errs = j.Unwrap() // one error a sensor
		}
		for _, e := range errs {
			fix := "check its wiring and address (climated scan lists what answers)"
			if range_ := (*hw.RangeError)(nil); errors.As(e, &range_) {
				fix = "an implausible value: the chip is faulty or is another chip at that address"
			}
			out = append(out, Finding{Check: "sensors", Status: StatusFail, Detail: e.Error(), Fix: fix})
		}
	}
	return out
}

// checkGPIO finds the rain gauge's pin and reads its level.
func checkGPIO(ctx context.Context, cfg config.Config, env Env) []Finding {
	if cfg.RainGauge == nil {
		return []Finding{{Check: "gpio", Status: StatusSkip, Detail: "no rain gauge configured"}}
	}
	open := env.OpenPin
	if open == nil {
		open = raingauge.OpenPin
	}
	pin, err := open(cfg.RainGauge.Pin)
	if err != nil {
		return []Finding{{Check: "gpio", Status: StatusFail, Detail: fmt.Sprintf("rain gauge pin %s: %v", cfg.RainGauge.Pin, err),
			Fix: "let the service's user use GPIO: sudo usermod -aG gpio climated; pin names are like GPIO17"}}
	}
	return []Finding{{Check: "gpio", Status: StatusOK, Detail: fmt.Sprintf("rain gauge pin %s found, reads %s", cfg.RainGauge.Pin, pin.Read())}}
}
