package demo

import "github.com/climated/climated/sensors"

// SourcePrefix starts the name of every source of the demo house:
// "demo/<Zone>". The history keeps a series either simulated or measured
// by it (sensors.Simulated).
const SourcePrefix = sensors.SimulatedPrefix
