// Package weather derives what a weather station's readings imply, by
// the formulas of weewx, the reference weather-station software
// (weewx.wxformulas): heat index, wind chill, humidex, apparent
// temperature, and sunrise, sunset and day length by NOAA's solar
// calculation; the dew point takes the WMO's Magnus coefficients
// (dewpoint.go) where weewx takes older ones. Each function cites the formula it follows, and
// its test the published table it is checked against. Temperatures are in
// °C, relative humidity in %, wind in m/s.
package weather
