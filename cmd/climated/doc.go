// Command climated is the home-climate hub: it records the house's zone
// sensors in SQLite and serves them over MCP.
//
//	climated serve [--config FILE] [--listen HOST:PORT] [--db FILE] [--demo]
//	climated scan [--bus N] [--zone NAME]
//	climated read [--config FILE] [--bus N] [--zone NAME]
//	climated mcp [--config FILE] [--db FILE] | --remote URL [--token-file FILE]
//	climated connect CLIENT [--remote URL] [--config FILE] [--name NAME] [--write]
//	climated doctor [--config FILE] [--db FILE] [--json]
//	climated alerts [--config FILE] [--db FILE] [--since T] [--limit N] [--json]
//	climated backup [--config FILE] [--db FILE] BACKUP-FILE
//	climated export [--config FILE] [--db FILE] [--zone Z] [--measurement M] [--from T] [--to T] [--format csv|json]
//	climated import [--config FILE] [--db FILE] [--skip-bad] CSV-FILE
//	climated forget [--config FILE] [--db FILE] --after TIME|--ahead [--yes]
//	climated clients [--config FILE] [--db FILE] [--json] [revoke CLIENT-ID]
//	climated station [--config FILE]
//	climated token [--config FILE] [--db FILE]
//	climated config check [FILE]
//	climated config example [--starter]
//	climated version
//	climated help [COMMAND]
//
// serve is the default command. The list and its usage lines come from internal/cli; "climated help"
// prints them with a line on each.
//
// With no configuration and no hardware it runs the demo house, a simulated
// home, so that an assistant has something to ask about at once.
//
// This package is the wiring: main.go turns the command line into a
// command, and serve.go, parts.go and reload.go connect the parts of a
// running hub. Each job has its package under internal/: the command line
// (cli), the configuration (config), the sources (sources), the alerts
// (alerting), /metrics (metrics), the HTTP server (httpserve) and what it
// serves (front, dash), the disk watch (diskwatch), the memory trim
// (memtrim), systemd's notify and watchdog (systemd), the token file
// (token), and the other commands (configcmd, datacmd, hwcmd, mcpcmd,
// bridge, connect, doctor). connect_cmd.go is the flags of climated
// connect: package connect cannot take them itself, as cli names its
// clients in the help.
package main
