// Package raingauge counts the tips of a tipping-bucket rain gauge on a
// GPIO pin and reports them as sensors.Rain readings: the rain of each
// interval, in mm.
//
// # Wiring
//
// The gauge's reed switch goes between the pin and ground (for example
// GPIO17, header pin 11, and ground on pin 9); the pin's internal pull-up
// holds it high and each tip of the bucket pulls it low for a moment, a
// falling edge. With edge: rising the switch goes to 3.3 V and the pin is
// pulled down. Common gauges (Davis, Misol, the SparkFun weather meter)
// tip every 0.2794 mm (0.011 in); configure mm_per_tip for others.
//
// # Counting
//
// The kernel reports edges; the gauge waits for them with WaitForEdge and
// a timeout of a second, in a loop, so that it notices the end of its
// context (a timeout of −1 returns at once on host/v3's gpioioctl pins).
// A reed switch bounces: edges within debounce (200 ms) after a counted
// tip are ignored. That bounds the rate at five tips a second, 5000 mm an
// hour, far beyond any rain.
//
// # Readings, and why no tip is lost
//
// At every multiple of the interval (5 minutes, as Netatmo's gauge) the
// gauge records the interval's rain, tips × mm_per_tip, as one Rain
// reading timed at the end of the interval, zero included, so the history
// sums it into sum_rain_1 and sum_rain_24 and an idle gauge is seen alive.
// A reading has the catalogue's resolution of rain, three decimals (a
// 0.2794 mm tip reads 0.279, never 0.3); what rounding leaves out is
// carried into the next interval with a tip, so sums stay within
// 0.0005 mm of tips × mm_per_tip.
// Tips are counted by their own goroutine, so a slow sink never misses
// one. When Run ends (shutdown or restart) it stops watching the pin first
// and then records the tips of the unfinished interval at once, timed at
// that moment, with a context of its own so that the sink still takes
// them; the next Run starts a new interval. A reading the sink rejects is
// carried into the next interval rather than dropped. What can be lost is
// only the unfinished interval at a power cut or a crash: at most one
// interval's tips, which a shorter interval narrows.
package raingauge
