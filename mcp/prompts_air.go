package mcp

import (
	"net/url"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/climated/climated/sensors"
)

// airQuality are the air-quality measurements a report reads: the particle
// sizes the WHO guideline names and Sensirion's gas indices. PM1 and PM4
// add little to PM2.5 and PM10; get_climate has them.
var airQuality = []sensors.Measurement{sensors.PM25, sensors.PM10, sensors.VOCIndex, sensors.NOxIndex}

// airCurves are the measurements whose hourly curve an air-quality report
// embeds: when PM2.5 and the VOC index rose says what caused it.
var airCurves = []sensors.Measurement{sensors.PM25, sensors.VOCIndex}

// airGuide is what a model needs to read the air-quality measurements: the
// WHO 2021 guideline for particles and the meaning of Sensirion's indices.
const airGuide = "Particles in µg/m³ (PM25 is PM2.5): the WHO 2021 air quality guideline is 15 µg/m³ for PM2.5 as a " +
	"24-hour mean and 5 µg/m³ as an annual mean, 45 µg/m³ for PM10 as a 24-hour mean; a short peak while cooking is " +
	"normal if it is gone within the hour, a 24-hour mean above the guideline is not. VOCIndex (Sensirion, 1–500): 100 " +
	"is the room's own average of the last 24 hours, above it more volatile organic compounds than usual (cooking, " +
	"cleaning, paint, new furniture), above 250 ventilate now; below 100 fresher than usual. NOxIndex (1–500): 1 is the " +
	"room's usual air, above it nitrogen oxides from combustion (gas cooker, candles, a fireplace, traffic outside): " +
	"ventilate and use the cooker hood."

// airToolsNote tells the model where fresher data comes from.
const airToolsNote = "For the current values call get_climate (keys PM25, PM10, VOCIndex, NOxIndex of each zone); " +
	"for a 24-hour mean call get_history with the zone, the measurement and from=24h (the summary's mean)."

var airQualityPrompt = promptSpec{
	name: "air_quality_report", title: "Air quality report", defaultPeriod: "last_24h",
	description: "Air quality of the house or one zone (particles PM2.5 and PM10, VOC and NOx indices) against the WHO " +
		"2021 guideline, with the causes of peaks and ventilation advice.",
	args: []*sdk.PromptArgument{
		{Name: "zone", Title: "Zone", Description: "one zone with an air-quality sensor (Indoor …); leave out for every such zone"},
		periodArg,
	},
	zones: (*Server).airZones, zonesAre: "the zones with air quality (PM25, PM10, VOCIndex, NOxIndex)",
	instructions: "Report on the air quality of %s over %s. " + airGuide + " Say whether the 24-hour means meet the " +
		"WHO guideline, when the peaks happened (local time) and what likely caused them, and give ventilation advice: " +
		"air after cooking or when the VOC index is high, but keep the windows shut while the outdoor PM2.5 is higher " +
		"than indoors (smoke, smog). " + airToolsNote + " Use the data below; do not invent values.",
	material: func(s *Server, zones []string, p period) []string {
		var uris []string
		for _, z := range zones {
			uris = append(uris, ZoneURI(z), summaries(z, p, s.airMeasurements(z)))
			for _, m := range airCurves {
				if p.step != "" && s.has(z, m) {
					uris = append(uris, HistoryURI(z, m, url.Values{"from": {p.from}, "to": {p.to}, "step": {p.step}}))
				}
			}
		}
		return uris
	},
}

// airZones lists the zones that measure air quality.
func (s *Server) airZones() []string {
	var zones []string
	for _, z := range s.zoneNames() {
		if s.airMeasurements(z) != "" {
			zones = append(zones, z)
		}
	}
	return zones
}

// airMeasurements lists, comma-separated, the air-quality measurements of
// zone.
func (s *Server) airMeasurements(zone string) string { return s.present(zone, airQuality) }
