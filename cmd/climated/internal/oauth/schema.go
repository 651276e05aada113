package oauth

import (
	"embed"

	"github.com/climated/climated/history"
)

//go:embed migrations/*.sql
var migrations embed.FS

// Schema is OAuth's part of the history's file: clients, codes, grants
// and tokens. Open and OpenRegistry bring it up to date.
var Schema = history.NewSchema("oauth", migrations, "migrations")
