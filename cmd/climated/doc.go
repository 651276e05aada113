// Command climated is the home-climate hub: it records the house's zone
// sensors in SQLite and serves them over MCP.
//
//	climated [serve] [--config FILE] [--listen HOST:PORT] [--db FILE] [--demo]
//	climated version
//
// With no configuration and no hardware it runs the demo house, a simulated
// home, so that an assistant has something to ask about at once.
package main
