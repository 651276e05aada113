package remotewrite

import (
	"embed"

	"github.com/climated/climated/history"
)

//go:embed migrations/*.sql
var migrations embed.FS

// Schema is remote write's part of the history's file: each store's
// cursor. The sender's cursor brings it up to date.
var Schema = history.NewSchema("remote_write", migrations, "migrations")
