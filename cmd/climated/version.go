package main

import (
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
)

// Stamped at build time with -ldflags "-X main.version=… -X main.commit=… -X main.date=…".
var (
	version = "dev"
	commit  = ""
	date    = ""
)

// buildVersion is the version, falling back to what the Go toolchain
// recorded when nothing was stamped.
func buildVersion() string {
	if version != "dev" {
		return version
	}
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return version
}

func printVersion(w io.Writer) {
	fmt.Fprintf(w, "climated %s", buildVersion())
	if commit != "" {
		fmt.Fprintf(w, " commit %s", commit)
	}
	if date != "" {
		fmt.Fprintf(w, " built %s", date)
	}
	fmt.Fprintf(w, " %s %s/%s\n", runtime.Version(), runtime.GOOS, runtime.GOARCH)
}
