// Package weathercard is what a weather station adds to a zone's card
// (docs/stations.md): the wind as a compass with speed, gusts and the
// day's strongest gust, what the air feels like, a leak as words, UV's
// WHO category and lightning's sums. Its script and stylesheet are
// embedded once for the two places that draw cards, the dashboard
// (cmd/climated/internal/dash) and the MCP Apps house view (mcp), neither
// of which may import the other; each hands the script its own helpers
// (see the head of weather.js).
package weathercard
