// Package demo is the demo house that climated runs when no sensor is
// configured. Its data is SIMULATED: every value comes from the model below,
// none was measured. It exists so that a fresh installation has something to
// show, and the logs and every reading's source ("demo/<Zone>") say so.
//
// The house looks like a Netatmo weather station: a main station in
// the living room (zone Indoor), an indoor module in the Bedroom, an outdoor
// module on the Balcony and a Rain gauge, with a SEN55-like air-quality
// sensor beside the main station:
//
//	Indoor   Temperature Humidity CO2 Noise Pressure AbsolutePressure wifi_status
//	         PM1 PM25 PM4 PM10 VOCIndex NOxIndex
//	Bedroom  Temperature Humidity CO2 battery_vp battery_percent rf_status
//	Balcony  Temperature Humidity battery_vp battery_percent rf_status
//	Rain     Rain battery_vp battery_percent rf_status
//
// # Determinism
//
// A reading is a pure function of the seed, the location and the instant:
// House.At keeps no state, so a backfilled day, a restart and a test that
// steps through a day all see the same values. The randomness is hash
// noise: SplitMix64 of the seed, a stream number and a time bucket gives a
// value per bucket, and smoothstep curves join neighbouring buckets, so every
// quantity moves continuously. Values are rounded to the decimals the
// sensors catalogue shows them with.
//
// # Time
//
// People live by the local wall clock (with daylight saving time); the
// weather follows the sun, for which the model uses the location's local
// standard time. In summer the afternoon maximum therefore comes an hour
// later by the clock, and the weather does not jump when the clocks change.
//
// # Weather (Balcony, pressure, rain)
//
// Outdoor temperature = seasonal mean + weather drift + daily cycle + noise:
//   - seasonal mean 10 ± 9 °C, coldest on 19 January, warmest on 20 July;
//   - drift ±2.5 °C over 4-day periods plus ±1 °C from day to day;
//   - daily cycle: minimum at 05:30 and maximum at 15:00 local standard
//     time, joined by half cosines (a faster morning rise), with a half range
//     of 2.5 °C in midwinter to 5.5 °C in midsummer, times 0.7…1.2 for cloudy
//     or clear days;
//   - noise ±0.15 °C over 15 minutes.
//
// The dew point follows the day's mean temperature (mean minus 2…5 °C), not
// the daily cycle, so relative humidity (Magnus formula) falls as the
// afternoon warms the air; outdoor humidity is clamped to 40…95 %.
//
// Sea-level pressure = 1013 hPa ± 12 hPa over 60-hour periods (weather
// systems) ± 5 hPa over 10-hour periods (fronts) + a 0.5 hPa semidiurnal tide,
// so it stays within about 996…1031 hPa. AbsolutePressure is the pressure at
// the station, 120 m above sea level, by the barometric formula of the
// International Standard Atmosphere:
//
//	p_station = p_sea · (1 − 0.0065·h/288.15)^5.2559 = 0.98585 · p_sea at h = 120 m
//
// which is about 14.3 hPa less.
//
// Rain: each hour has a shower with a chance of 14 % at 1010 hPa, 1.5 % more
// per hPa below that and less above it (clamped to 0…50 %), so wet spells
// come with low pressure; over a year about 9…11 % of the hours are wet. A
// shower lasts 5 to 20 minutes within its hour, swells and ebbs, and brings
// 0.1…3 mm per 5 minutes with heavy showers rare (roughly 650…950 mm a year).
// The gauge reports the rain of the 5 minutes ending at each multiple of
// RainInterval, at a resolution of 0.1 mm.
//
// # Rooms (Indoor, Bedroom)
//
// The living room is 21 °C plus 0.12 × (outdoor temperature 3 hours earlier −
// 10 °C), plus 0.6 °C from people and cooking from 17:30 to 23:00, minus the
// airing after dinner (see Air). The
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
// # Air (Indoor)
//
// The living room has an open kitchen. Its particulate matter is the sum of
// sources, each with its own spread over the sizes (PM1, PM4 and PM10 as
// multiples of its PM2.5, at most 1, at least 1, at least PM4's), so that
// PM1 ≤ PM2.5 ≤ PM4 ≤ PM10 at every instant:
//   - outdoor PM2.5 of 5 µg/m³ in midsummer to 13 in midwinter, times
//     0.5…1.5 over 36-hour periods (sizes 0.70, 1.20, 1.60); it is not
//     reported, but 45 % of it gets in (0.75, 1.10, 1.25);
//   - 1 ± 0.3 µg/m³ from indoor sources, and 1.5 µg/m³ of coarse dust
//     (0.30, 1.80, 3.00) while people are home (06:30…08:30, 17:30…23:00,
//     10:00…17:00 at weekends);
//   - cooking (0.85, 1.04, 1.07), twice a day. Breakfast on the electric
//     toaster and kettle starts at 07:00…07:20 and lasts 10 minutes; dinner
//     on the gas hob starts at 18:00…18:40 and lasts 40 minutes (the seed
//     and the date decide the minute). Each meal has a strength per day
//     that sets its peaks above the background: PM2.5 +30…60 µg/m³ and a
//     VOC index of 180…260 at breakfast; PM2.5 +60…150 µg/m³, a VOC index
//     of 250…400 and a NOx index of 31…151 at dinner. The fumes rise towards
//     the peak with a time constant of 4 minutes (two thirds of it within 5
//     minutes), reach it when the cooking stops, and fall with a time
//     constant of 20 minutes (the hood on), to a tenth within the hour.
//
// Ten minutes after dinner the kitchen window is opened for 20 minutes
// (ramps of 8 minutes). The share of fresh outdoor air in the room grows
// while it is open (time constant 10 minutes, to about 0.7) and fades once
// it is shut (30 minutes): it takes the room's particle background towards
// the outdoor air, its VOC index towards 70, its CO₂ excess over 420 ppm
// and the people's moisture away, and cools the room by up to 0.7 °C in
// midwinter (0.3 °C in midsummer); the cooking's fumes fall faster while
// the window is open (a further time constant of 10 minutes).
//
// The VOC index is 100 ± 8 (drifting over 3 hours) outside the episodes,
// Sensirion's baseline of the room's 24-hour average; the NOx index is 1,
// the room's usual air, except while the gas hob's fumes linger.
//
// Noise in the living room is 34 ± 2 dB at night and 47 ± 6 dB from 07:00 to
// 22:30.
//
// # Devices
//
// A module runs on four alkaline cells whose charge falls linearly from
// 100 % to 50 % over the battery's life (Bedroom 540 days, Balcony 365,
// Rain 450), then the battery is replaced; the seed decides where in that
// cycle each module is. As the catalogue's battery model says
// (sensors/battery.go), battery_vp is the pack's voltage on the alkaline
// discharge curve (6200 mV fresh, about 5100 mV at 50 %) and
// battery_percent is what the module derives from that voltage with the
// same curve, sensors.Alkaline.Percent; no voltage is derived from a
// percentage. rf_status is about 58…64 (Bedroom), 64…72 (Balcony) and
// 66…74 (Rain) with ±4 of noise, within 55…80; wifi_status is about 53…58
// ± 3, within 50…65 (on Netatmo's scales lower is better).
package demo
