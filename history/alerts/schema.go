package alerts

import (
	"embed"

	"github.com/climated/climated/history"
)

//go:embed migrations/*.sql
var migrations embed.FS

// Schema is the alerts' part of the history's file: the rules, their
// state per zone and the alert history. OpenDB brings it up to date.
var Schema = history.NewSchema("alerts", migrations, "migrations")
