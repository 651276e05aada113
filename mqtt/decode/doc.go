// Package decode turns the MQTT payloads of the devices people already have
// into climated measurements: one file per format, each a Decoder that
// names the device a message is about, the values it carries (converted to
// the units of the sensors catalogue and checked against its ranges) and
// what it says about the device being online. Decoders keep no state and
// never panic; a bad value is dropped and named in Result.Problems while
// the payload's other values are kept.
//
// # Formats
//
//   - zigbee2mqtt: <base>/<friendly name> JSON: temperature, humidity,
//     pressure (hPa, the station's: AbsolutePressure, as Aqara and the
//     like measure it), co2, pm1, pm25, pm4, pm10 (µg/m³), voc_index,
//     nox_index (Sensirion's indices; a plain voc is a concentration and
//     is not read), battery (%), voltage (mV), linkquality (0–255).
//     Availability on <base>/<name>/availability, {"state":"online"} since
//     2.0 or a plain online/offline before.
//   - tasmota: tele/<topic>/SENSOR (and the StatusSNS of
//     stat/<topic>/STATUS10) with one object per chip; Temperature,
//     Humidity, Pressure (the station's: AbsolutePressure), SeaPressure
//     (Pressure), CarbonDioxide, PM1, PM2.5, PM4, PM10 (µg/m³; the
//     PMS5003's atmospheric values, not its CF ones; SPS30's PM1_0,
//     PM2_5, PM4_0), and SEN5X's VOC and
//     NOx indices; TempUnit (C/F) and PressureUnit (hPa,
//     mmHg, inHg) apply, to fields without a unit too. Each chip is a
//     probe; the processor's own (ESP32, ESP8266) and Global are never
//     taken but through a field, nor ANALOG's inputs but its lowest
//     TemperatureN (an NTC: a Sonoff NSPanel's room sensor). tele/<topic>/STATE gives the Wi-Fi
//     signal, tele/<topic>/LWT the availability.
//   - esphome: <node>/sensor/<name>/state plain numbers (None, or nan
//     before 2024.11, is no value), <node>/status availability. The measurement comes from the sensor name: battery
//     with volt → battery_vp (V); battery → battery_percent; wifi, rssi,
//     signal → rf_status (dBm); humidity; co2; pm with a size (pm_2_5,
//     pm25, pm__2_5__m_weight_concentration, particulate_matter_…) → PM1,
//     PM25, PM4, PM10 but not the standard-particle (std) values nor
//     counts; voc (sen5x), voc_index → VOCIndex; nox → NOxIndex;
//     sea_level pressure →
//     Pressure; pressure → AbsolutePressure; noise, sound → Noise;
//     temperature, temp, temp_…, …_temp → Temperature. Names with
//     internal, cpu, chip, core or uptime are skipped (the chip's own
//     temperature is not the room's). A field whose path is the sensor
//     name overrides the guess and sets the unit.
//   - shelly: Gen2/Gen3 (the Plus H&T, the H&T Gen3)
//     <prefix>/status/temperature:0 (tC), humidity:0 (rh), devicepower:0
//     (battery.V, battery.percent; ignored on external power), wifi
//     (rssi); NotifyStatus and NotifyFullStatus on <prefix>/events/rpc;
//     <prefix>/online. Gen1 (the H&T, the Shelly 1 add-on)
//     shellies/<id>/sensor/temperature, humidity, battery and
//     ext_temperature/<i>, ext_humidity/<i> plain numbers; online.
//   - theengs (Theengs Gateway, OpenMQTTGateway): home/<gw>/BTtoMQTT/<MAC>
//     JSON: tempc (or tempf), hum, pres, co2, batt (%), volt (V), rssi.
//   - rtl_433: rtl_433/<host>/events JSON and the per-field
//     rtl_433/<host>/devices/…/<field> topics: temperature_C (or _F),
//     humidity, pressure_hPa/_kPa, battery_ok, battery_mV, and rain_mm or
//     rain_in as cumulative counters, temperature_1_C … as probe 1. A
//     station's key is rtl_433's own devices path,
//     [type/]model[/subtype][/channel][/id].
//   - generic: fields only, a dotted JSON path or the plain payload per
//     measurement, with a unit.
//   - climated: another hub's <prefix>/<zone>/state (see package mqtt).
//
// Devices send numbers as JSON numbers and sometimes as strings; both are
// read. A null (JSON null, None, nan) is no value in this message, not a
// fault: a device just paired sends them, and sensors between readings.
//
// A device with several sensors of a kind (Tasmota chips, rtl_433
// temperature_1_C, Shelly add-on probes) marks each value with its Probe;
// the first of each measurement is also the device's own (Main). Values arrive without a time of their own except in the climated
// format; the ingest stamps them with the time they were received.
//
// # Units
//
// Convert knows °C, °F and K; hPa, mbar, Pa, kPa, mmHg and inHg (1 mmHg =
// 1.33322 hPa, 1 inHg = 33.8639 hPa); mm, cm and in of rain; mV and V; %;
// ppm; dB.
//
// # Battery and radio
//
//   - battery_percent is the level the device reports; rtl_433's
//     battery_ok (0 low … 1 good) becomes 0–100 %. A level is never
//     estimated from a voltage, nor a voltage from a level: a device's
//     chemistry is unknown, and the catalogue's battery model
//     (sensors/battery.go) leaves out what cannot be known.
//   - battery_vp is the battery voltage in mV (volts are multiplied by
//     1000).
//   - rf_status and wifi_status are Netatmo's radio scales, lower is
//     better (rf_status: 90 low, 80 medium, 70 high, 60 full;
//     wifi_status: 86 bad, 71 average, 56 good), converted by the
//     catalogue's one conversion, the same as the hub's own Wi-Fi
//     (sensors.SignalFromDBm): a level in dBm (BLE, a sensor's Wi-Fi) is
//     its magnitude, past the marks too: −55 dBm → 55, −72 dBm → 72,
//     −95 dBm → 95. A quality in percent (Tasmota's Wi-Fi RSSI, 2·(dBm +
//     100)) is taken back to its level: 70 % → −65 dBm → 65. A zigbee
//     link quality (LQI, 0–255) is not a level and is spread over the
//     rf marks: 0 → 90, 255 → 60 (rf = 90 − 30·lqi/255).
package decode
