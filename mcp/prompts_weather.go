package mcp

import (
	"slices"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/climated/climated/sensors"
)

// weatherDaily are the measurements whose daily summaries a weather
// report over several days embeds: the day-by-day story.
var weatherDaily = []sensors.Measurement{sensors.Temperature, sensors.Rain, sensors.GustStrength, sensors.UV}

var weatherPrompt = promptSpec{
	name: "weather_report", title: "Weather report", defaultPeriod: "today",
	description: "The weather outdoors over a period: temperature, wind, rain and its intensity, UV (WHO categories), " +
		"what it feels like, the sun, and records broken.",
	args: []*sdk.PromptArgument{
		{Name: "zone", Title: "Zone", Description: "one outdoor zone (a weather station, a rain gauge); leave out for every such zone"},
		periodArg,
	},
	zones: (*Server).weatherZones, zonesAre: "the outdoor zones (wind, sun, UV, rain or lightning)",
	instructions: "Write a short weather report for %s over %s, from the digest and the data below; do not invent values. " +
		"Give the temperatures, the wind (the direction given is the vector mean of the period's directions) and its " +
		"strongest gust, the rain and its heaviest rate, the UV index with its WHO category (0–2 low, 3–5 moderate, 6–7 " +
		"high, 8–10 very high, 11+ extreme: sun protection from 3 up), what it feels like now, the sun, and any records " +
		"broken (a record beaten in the period, with the one it beat). The digest's times are local.",
	digest: (*Server).weatherDigest,
	material: func(s *Server, zones []string, p period) []string {
		var uris []string
		for _, z := range zones {
			uris = append(uris, ZoneURI(z))
			if keep := s.present(z, weatherDaily); p.step == "" && keep != "" {
				uris = append(uris, summaries(z, p, keep))
			}
		}
		return uris
	},
}

// weatherZones lists the zones with a measurement only taken outdoors.
func (s *Server) weatherZones() []string {
	var zones []string
	for _, z := range s.zoneNames() {
		if slices.ContainsFunc(s.measurementNames(z), func(m string) bool { return sensors.Measurement(m).Outdoor() }) {
			zones = append(zones, z)
		}
	}
	return zones
}

// present lists, comma-separated, those of ms that zone records.
func (s *Server) present(zone string, ms []sensors.Measurement) string {
	var keep []string
	has := s.measurementNames(zone)
	for _, m := range ms {
		if slices.Contains(has, string(m)) {
			keep = append(keep, string(m))
		}
	}
	return strings.Join(keep, ",")
}
