// Package weather derives what a weather station's readings imply, as
// weewx, the reference weather-station software, derives it
// (weewx.wxformulas): dew point, heat index, wind chill, humidex,
// apparent temperature, and sunrise, sunset and day length by NOAA's
// solar calculation. Each function cites the formula it follows, and
// its test the published table it is checked against. Temperatures are in
// °C, relative humidity in %, wind in m/s.
package weather
