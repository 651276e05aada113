package demo

import (
	"math"
	"time"
)

// The rooms and the people in them (Indoor, Bedroom). Hours are on the
// local wall clock.
//
// The living room is 21 °C plus 0.12 × (outdoor temperature 3 hours earlier −
// 10 °C), plus 0.6 °C from people and cooking from 17:30 to 23:00, minus the
// airing after dinner (air.go). The
// bedroom is 19.5 °C plus 0.10 × (outdoor temperature 4 hours earlier −
// 10 °C), plus 0.8 °C from two sleepers from 22:30 to 07:00, minus up to
// 1.5 °C (0.3 °C in summer) when it is aired at 07:00…08:00. The indoor dew
// point is 0.4 × the outdoor one + 5.5 °C plus moisture from people, so
// indoor humidity falls as the room warms; it is clamped to 35…60 %.
//
// CO2 starts from fresh air at 420 ppm. The bedroom rises from about
// 450…550 ppm while people sleep (time constant 2.5 h) towards a night's
// level of 1300…1650 ppm and falls back within the hour when the window is
// opened at 07:00 (time constant 20 min). The living room is 440…520 ppm,
// plus 100 ppm at breakfast (06:30…08:30), 150 ppm in the daytime at
// weekends and 260…380 ppm in the evening (17:30…23:00).
//
// Noise in the living room is 34 ± 2 dB at night and 47 ± 6 dB from 07:00 to
// 22:30.
const (
	livingBase      = 21.0          // °C, living room temperature at the annual mean outdoors
	bedroomBase     = 19.5          // °C, bedroom temperature at the annual mean outdoors
	livingCoupling  = 0.12          // the living room follows the outdoor temperature by this fraction …
	livingLag       = 3 * time.Hour // … this much later,
	bedroomCoupling = 0.10          // the bedroom by this fraction …
	bedroomLag      = 4 * time.Hour // … this much later
	eveningOn       = 17.5          // people are home in the living room …
	eveningOff      = 23.0          // … until they go to bed
	eveningWarmth   = 0.6           // °C the people and the cooking add in the evening
	sleepOn         = 22.5          // people sleep in the bedroom …
	sleepOff        = 7.0           // … until they air it in the morning
	sleepWarmth     = 0.8           // °C two sleepers add to the bedroom
	airingCool      = 1.5           // °C airing cools the bedroom in midwinter (0.3 in midsummer)
	indoorHumMin    = 35.0          // %, indoor relative humidity is clamped to
	indoorHumMax    = 60.0          // %, … this range
	co2Outdoor      = 420           // ppm, fresh air
	co2SleepTau     = 2.5           // hours, time constant of the bedroom's rise at night
	co2AiringTau    = 1.0 / 3       // hours, time constant of the fall when the window is open
	noiseNight      = 34.0          // dB, quiet night, ± 2
	noiseDay        = 47.0          // dB, day, ± 6
	noiseDayOn      = 7.0           // the day's noise starts …
	noiseDayOff     = 22.5          // … and ends
)

// room is what a room's station measures.
type room struct {
	temp, humidity, co2, noise float64
}

// indoorDew is the dew point inside: the outdoor air comes in through
// ventilation and people, cooking and plants add moisture.
func indoorDew(outdoorDew, moisture float64) float64 {
	return 0.4*outdoorDew + 5.5 + moisture
}

// livingRoom is the main station's room: occupied in the morning and the
// evening, and in the daytime at weekends.
func (h *House) livingRoom(in instant, outdoorDew float64) room {
	evening := window(in.wall, eveningOn, eveningOff, 1.5)
	morning := window(in.wall, 6.5, 8.5, 0.5)
	weekend := 0.0
	if in.weekend {
		weekend = window(in.wall, 10, 17, 1)
	}
	fresh := h.fresh(in) // the kitchen window after dinner (air.go)
	lagged := h.outdoorTemp(h.instant(in.t.Add(-livingLag)))
	temp := livingBase + livingCoupling*(lagged-seasonMean) + eveningWarmth*evening +
		0.1*h.smooth(sLivingJitter, in.t, 20*time.Minute) -
		(airingWarmth-0.6*summer(in))*fresh
	dew := indoorDew(outdoorDew, (1.5*evening+0.5*morning+0.8*weekend)*(1-fresh))
	co2 := co2Outdoor + (60+40*h.smooth(sLivingCO2Base, in.t, 6*time.Hour)+ // 440 … 520
		100*morning+150*weekend+
		(260+120*h.unit(sLivingEvening, in.day))*evening)*(1-fresh) // 260 … 380 ppm more
	quiet := noiseNight + 2*h.smooth(sNoiseNight, in.t, 30*time.Minute)
	busy := noiseDay + 6*h.smooth(sNoiseDay, in.t, 15*time.Minute)
	return room{
		temp:     temp,
		humidity: clamp(relHumidity(dew, temp), indoorHumMin, indoorHumMax),
		co2:      co2,
		noise:    quiet + (busy-quiet)*window(in.wall, noiseDayOn, noiseDayOff, 1),
	}
}

// bedroom is the bedroom module: two people sleep there from sleepOn to
// sleepOff, then the window is opened for half an hour.
func (h *House) bedroom(in instant, outdoorDew float64) room {
	sleep := window(in.wall, sleepOn, sleepOff, 1)
	airing := window(in.wall, sleepOff, sleepOff+1, 0.5) // open 07:00, peak 07:30, recovered 08:00
	lagged := h.outdoorTemp(h.instant(in.t.Add(-bedroomLag)))
	temp := bedroomBase + bedroomCoupling*(lagged-seasonMean) + sleepWarmth*sleep -
		(airingCool-1.2*summer(in))*airing + 0.1*h.smooth(sBedJitter, in.t, 20*time.Minute)
	dew := indoorDew(outdoorDew, 2*sleep-2*airing)
	return room{
		temp:     temp,
		humidity: clamp(relHumidity(dew, temp), indoorHumMin, indoorHumMax),
		co2:      h.bedroomCO2(in),
	}
}

// bedroomCO2 rises towards the night's equilibrium (1300 … 1650 ppm) while
// people sleep and falls back to the daytime level within an hour of
// opening the window.
func (h *House) bedroomCO2(in instant) float64 {
	base := co2Outdoor + 80 + 50*h.smooth(sBedCO2Base, in.t, 6*time.Hour) // 450 … 550
	night := mod24(in.wall - sleepOn)                                     // hours since the night began
	length := mod24(sleepOff - sleepOn)
	started := in.day // the night in question began on this date …
	if in.wall < sleepOn {
		started-- // … or the day before
	}
	peak := 1300 + 350*h.unit(sBedNight, started)
	if night < length {
		return base + (peak-base)*(1-math.Exp(-night/co2SleepTau))
	}
	atOff := 1 - math.Exp(-length/co2SleepTau)
	return base + (peak-base)*atOff*math.Exp(-(night-length)/co2AiringTau)
}
