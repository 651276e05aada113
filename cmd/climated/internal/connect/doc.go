// Package connect is climated connect: the configuration that makes an
// assistant (Claude Desktop, Claude Code, VS Code, Cursor …) use the hub,
// printed as a recipe or merged into the client's own file, with a backup
// first and every other key left as it was.
package connect
