package hw

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"periph.io/x/conn/v3/i2c"
	"periph.io/x/conn/v3/physic"
	"periph.io/x/host/v3/sysfs"

	"github.com/climated/climated/sensors/sensirion"
)

// Opener opens an I²C bus by its configured name ("1" for /dev/i2c-1).
// OpenBus is the real one; tests pass playback buses.
type Opener func(name string) (i2c.BusCloser, error)

// DefaultBus is the I²C bus on the Raspberry Pi's header (pins 3 and 5).
const DefaultBus = "1"

// OpenBus opens /dev/i2c-N through periph's sysfs driver. A missing bus
// and a bus without permission give ErrNoBus and ErrPermission, with what to
// do about them.
func OpenBus(name string) (i2c.BusCloser, error) {
	n, err := busNumber(name)
	if err != nil {
		return nil, err
	}
	path := "/dev/i2c-" + strconv.Itoa(n)
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, fmt.Errorf("%s: %w: enable I²C (sudo raspi-config nonint do_i2c 0, or dtparam=i2c_arm=on in /boot/firmware/config.txt, /boot/config.txt before Bookworm) and reboot", path, ErrNoBus)
	case errors.Is(err, fs.ErrPermission):
		return nil, fmt.Errorf("%s: %w: add the service's user to group i2c (SupplementaryGroups=i2c in the systemd unit, or sudo usermod -aG i2c USER)", path, ErrPermission)
	case err != nil:
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	f.Close()
	b, err := sysfs.NewI2C(n)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, classify(err))
	}
	return b, nil
}

// busNumber accepts "1", "i2c-1", "/dev/i2c-1" and "I2C1".
func busNumber(name string) (int, error) {
	s := strings.TrimPrefix(name, "/dev/")
	s = strings.TrimPrefix(strings.ToLower(s), "i2c")
	s = strings.TrimPrefix(s, "-")
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("bus %q: want a bus number such as 1 (for /dev/i2c-1)", name)
	}
	return n, nil
}

// normBus is the canonical name of an I²C bus: its number.
func normBus(name string) string {
	if n, err := busNumber(name); err == nil {
		return strconv.Itoa(n)
	}
	return name
}

// sharedBus is one open bus that several sensors use. Its mutex holds for
// one transaction, not for a chip's whole measurement: drivers sleep
// between writing a command and reading the result, and another chip may
// use the bus meanwhile, as I²C allows.
type sharedBus struct {
	name string
	mu   sync.Mutex
	bus  i2c.BusCloser

	bmu     sync.Mutex
	bridges map[uint16]*bridge // the DS2482s on the bus, by address
}

func (b *sharedBus) tx(addr uint16, w, r []byte) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.bus.Tx(addr, w, r)
}

// Tx implements i2c.Bus for a device's own goroutine, which outlives the
// attempt that opened it (see guard).
func (b *sharedBus) Tx(addr uint16, w, r []byte) error { return b.tx(addr, w, r) }

func (b *sharedBus) String() string { return "i2c" + b.name }

// SetSpeed implements i2c.Bus; see guard.SetSpeed.
func (b *sharedBus) SetSpeed(physic.Frequency) error { return errSpeed }

// bridge is the DS2482 at addr, shared by every DS18B20 behind it.
func (b *sharedBus) bridge(addr uint16) *bridge {
	b.bmu.Lock()
	defer b.bmu.Unlock()
	if b.bridges == nil {
		b.bridges = make(map[uint16]*bridge)
	}
	br := b.bridges[addr]
	if br == nil {
		br = &bridge{addr: addr}
		b.bridges[addr] = br
	}
	return br
}

// busPool opens each bus once, when a sensor first needs it, and closes
// them all at the end. A bus that fails to open is tried again by the next
// sensor that needs it.
type busPool struct {
	open  Opener
	mu    sync.Mutex
	buses map[string]*sharedBus
}

func newBusPool(open Opener) *busPool {
	return &busPool{open: open, buses: make(map[string]*sharedBus)}
}

func (p *busPool) get(name string) (*sharedBus, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if b := p.buses[name]; b != nil {
		return b, nil
	}
	bus, err := p.open(name)
	if err != nil {
		return nil, err
	}
	b := &sharedBus{name: name, bus: bus}
	p.buses[name] = b
	return b, nil
}

func (p *busPool) close() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	var errs []error
	for name, b := range p.buses {
		b.mu.Lock()
		if err := b.bus.Close(); err != nil {
			errs = append(errs, fmt.Errorf("close bus %s: %w", name, err))
		}
		b.mu.Unlock()
		delete(p.buses, name)
	}
	return errors.Join(errs...)
}

// guard is the bus as one sensor's driver sees it. Its transactions fail
// once the sensor's current attempt is over, so that a driver that loops on
// the bus (bmxx80 waits for the chip's idle bit without a limit) returns;
// it turns a read of nothing but 0xFF bytes into ErrAllOnes; and it keeps
// the latest transaction error, which some drivers (mcp9808, tmp102)
// replace by a message without the cause.
type guard struct {
	bus     *sharedBus
	ctx     atomic.Pointer[context.Context]
	lastErr atomic.Pointer[error]
}

func (g *guard) setContext(ctx context.Context) {
	g.ctx.Store(&ctx)
	g.lastErr.Store(nil)
}

// Tx implements i2c.Bus.
func (g *guard) Tx(addr uint16, w, r []byte) error {
	if c := g.ctx.Load(); c != nil && (*c).Err() != nil {
		return g.fail(fmt.Errorf("%w: attempt over: %w", ErrTimeout, (*c).Err()))
	}
	if err := g.bus.tx(addr, w, r); err != nil {
		return g.fail(err)
	}
	if len(r) >= 2 && sensirion.AllOnes(r) {
		return g.fail(ErrAllOnes)
	}
	return nil
}

func (g *guard) fail(err error) error {
	g.lastErr.Store(&err)
	return err
}

// cause is the latest transaction error, if any.
func (g *guard) cause() error {
	if p := g.lastErr.Load(); p != nil {
		return *p
	}
	return nil
}

func (g *guard) String() string { return "i2c" + g.bus.name }

// SetSpeed implements i2c.Bus. Sensors share the bus, so none may change
// its speed (on Linux the speed is a kernel setting anyway).
func (g *guard) SetSpeed(physic.Frequency) error { return errSpeed }

var errSpeed = errors.New("bus speed is shared: set it in the kernel (dtparam=i2c_arm_baudrate)")

var (
	_ i2c.Bus = (*guard)(nil)
	_ i2c.Bus = (*sharedBus)(nil)
)
