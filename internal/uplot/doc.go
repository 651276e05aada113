// Package uplot is the vendored uPlot charting library (MIT,
// https://github.com/leeoniya/uPlot): its built IIFE bundle, stylesheet,
// licence and version, embedded once for the two places that draw
// charts, the dashboard (cmd/climated/internal/dash) and the MCP Apps
// views (mcp), neither of which may import the other.
// scripts/update-uplot.sh VERSION replaces the files in dist.
package uplot
