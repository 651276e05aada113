#!/usr/bin/env bash
# Debian packages of climated, built with dpkg-deb from a staging tree (no
# debhelper): the static binary, the systemd unit, sysusers.d and
# tmpfiles.d files, a starter configuration as a conffile, the udev rules
# on ARM, a man page, and the maintainer scripts in scripts/deb/.
#
# Usage: scripts/deb.sh [VERSION]
#   VERSION      what `climated version` prints; default: git describe
#                --tags --always --dirty. The package version is derived
#                from it (v1.2.3 -> 1.2.3; 1.2.3-4-gabc -> 1.2.3+4.gabc;
#                2.0.0-rc1 -> 2.0.0~rc1; no tag -> 0.0.0~gitYYYYMMDD.<sha>).
#   DIST=DIR     where the packages go (default dist/)
#   DEB_ARCHES   a subset of: arm64 armhf amd64 (default all three)
#   MAINTAINER   the Maintainer field
#
# Writes DIR/climated_<version>_<arch>.deb and prints their names.
case "${1:-}" in -h | --help) sed -n '2,/^[^#]/s/^# \{0,1\}//p' "$0"; exit 0 ;; esac # the header above is the usage
set -euo pipefail
cd "$(dirname "$0")/.."

version=${1:-$(git describe --tags --always --dirty 2>/dev/null || echo dev)}
dist=${DIST:-dist}
arches=${DEB_ARCHES:-arm64 armhf amd64}
maintainer=${MAINTAINER:-climated developers <climated@users.noreply.github.com>}
commit=$(git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)
# The changelog's date, and the build date the binaries carry: the commit's
# time unless SOURCE_DATE_EPOCH says otherwise, so that two builds of one
# commit give the same packages.
export SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || date +%s)}

# A release tag (v1.2.3, 1.2.3) or, without one, the date and commit (an
# abbreviated hash may well start with a digit).
if echo "$version" | grep -Eq '^v?[0-9]+\.[0-9]'; then
	debver=${version#v}
else
	debver="0.0.0~git$(date -u -d "@$SOURCE_DATE_EPOCH" +%Y%m%d).$version"
fi
# A hyphen would start a Debian revision: 1.2.3-4-gabc-dirty becomes
# 1.2.3+4.gabc.dirty, which sorts after 1.2.3 and before 1.2.4, and a
# pre-release 2.0.0-rc1 becomes 2.0.0~rc1, which sorts before 2.0.0.
debver=$(echo "$debver" | sed -E 's/-(alpha|beta|rc|pre)/~\1/; s/-/+/; s/-/./g')
if ! echo "$debver" | grep -Eq '^[0-9][A-Za-z0-9.+~]*$'; then
	echo "deb: cannot make a Debian version of \"$version\" (got \"$debver\")" >&2
	exit 2
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$dist"

targets=""
for a in $arches; do
	case $a in
	arm64 | amd64) targets="$targets $a" ;;
	armhf) targets="$targets armv7" ;;
	*) echo "deb: unknown architecture $a (want arm64, armhf or amd64)" >&2; exit 2 ;;
	esac
done
DIST=$tmp/bin TARGETS="$targets" scripts/build.sh "$version" >/dev/null

# What the packages carry that the binary itself produces: the starter
# configuration (climated config example --starter), the man page's
# synopsis, and the dependencies' licences.
go build -o "$tmp/climated" ./cmd/climated
if "$tmp/climated" config example --starter >"$tmp/climated.yaml" 2>/dev/null ||
	"$tmp/climated" config example >"$tmp/climated.yaml" 2>/dev/null; then
	"$tmp/climated" config check "$tmp/climated.yaml" >/dev/null ||
		{ echo "deb: the starter configuration does not pass climated config check" >&2; exit 1; }
else
	# A binary without `climated config example`.
	cat >"$tmp/climated.yaml" <<-'EOF'
		# climated's configuration. No sensors listed: climated runs its demo
		# house. `climated scan` prints the lines for the chips on the I²C bus.
		# Secrets (CLIMATED_MQTT_PASSWORD for mqtt.password_env) belong in
		# /etc/climated/environment, one VAR=value a line, mode 0600.
		listen: 127.0.0.1:8473
	EOF
fi
# The synopsis is each command's usage line, and COMMANDS each command's
# line, as `climated help` prints them: the page cannot drift from the
# binary.
commands=$("$tmp/climated" help | awk '/^commands:/ { on = 1; next } on && /^  [a-z]/ { print $1 } on && /^$/ { exit }')
[ -n "$commands" ] || { echo "deb: climated help lists no commands" >&2; exit 1; }
# roff: a backslash is \e, a line may not start with . or ', a minus is \-.
roff() { sed 's/\\/\\e/g; s/^\([.'"'"']\)/\\\&\1/; s/-/\\-/g'; }
{
	cat <<-EOF
		.TH CLIMATED 1 "$(date -u -d "@$SOURCE_DATE_EPOCH" +%Y-%m-%d)" "climated $debver" "User Commands"
		.SH NAME
		climated \- home-climate hub: zone sensors recorded in SQLite, served over MCP
		.SH SYNOPSIS
		.nf
	EOF
	for c in $commands; do "$tmp/climated" help "$c" | sed -n '1s/^usage: //p'; done | roff
	cat <<-'EOF'
		.fi
		.SH DESCRIPTION
		.B climated
		reads the house's sensors (I\(S2C chips and a rain gauge on the hub,
		MQTT devices) or, without any, runs a simulated demo house; it records
		every reading in an SQLite database and serves the climate of every
		zone over the Model Context Protocol (Streamable HTTP at /mcp, HTTP+SSE
		at /sse, stdio with
		.BR "climated mcp" ),
		with a plain JSON API at /api/climate.
		.PP
		Listening on any address other than loopback makes every request need
		the bearer token that
		.B climated token
		prints.
		.SH COMMANDS
	EOF
	"$tmp/climated" help | awk '/^commands:/ { on = 1; next } on && /^  [a-z]/ { print $1; sub(/^  [a-z]+ +/, ""); print } on && /^$/ { exit }' |
		while read -r name && read -r line; do
			echo ".TP"
			echo ".B $name"
			echo "$line" | roff
		done
	cat <<-'EOF'
		.PP
		.B climated help
		.I COMMAND
		or
		.B climated
		.I COMMAND
		.B \-\-help
		prints a command's usage and flags;
		.B climated \-\-version
		the version.
		.SH EXIT STATUS
		0 on success; 1 when
		.B climated doctor
		finds a problem; 2 on wrong use or an error, printed on standard error
		with what was wrong, where, and what to do.
		.SH FILES
		.TP
		.I /etc/climated/climated.yaml
		the configuration of the service (YAML; unknown keys are errors)
		.TP
		.I /etc/climated/environment
		optional secrets for the service, such as CLIMATED_MQTT_PASSWORD
		.TP
		.I /var/lib/climated/climated.db
		the recorded history
		.TP
		.I /var/lib/climated/token
		the bearer token
		.SH SEE ALSO
		.BR systemctl (1),
		.BR journalctl (1),
		https://github.com/climated/climated
	EOF
} >"$tmp/climated.1"

# The licences of the Go modules linked into the binary, from the module
# cache that built it.
modcache=$(go env GOMODCACHE)
{
	echo "climated $version links these Go modules statically; their licences follow."
	echo
	go version -m "$tmp/climated" | awk '$1 == "dep" { print $2, $3 }' | while read -r mod ver; do
		dir=$modcache/$(echo "$mod" | sed 's/[A-Z]/!\L&/g')@$ver
		lic=$(find "$dir" -maxdepth 1 -type f \( -iname 'LICENSE*' -o -iname 'COPYING*' -o -iname 'LICENCE*' \) 2>/dev/null | sort | head -1)
		echo "==== $mod $ver"
		if [ -n "$lic" ]; then cat "$lic"; else echo "(no licence file found in the module)"; fi
		echo
	done
} >"$tmp/dependencies.txt"

for a in $arches; do
	case $a in
	armhf) bin=$tmp/bin/climated-linux-armv7 arm=true ;;
	arm64) bin=$tmp/bin/climated-linux-arm64 arm=true ;;
	amd64) bin=$tmp/bin/climated-linux-amd64 arm=false ;;
	esac
	root=$tmp/stage-$a
	install -D -m 0755 "$bin" "$root/usr/bin/climated"
	install -D -m 0644 systemd/climated.service "$root/lib/systemd/system/climated.service"
	install -D -m 0644 systemd/climated.sysusers "$root/usr/lib/sysusers.d/climated.conf"
	install -D -m 0644 systemd/climated.tmpfiles "$root/usr/lib/tmpfiles.d/climated.conf"
	if $arm; then
		install -D -m 0644 systemd/60-climated.rules "$root/lib/udev/rules.d/60-climated.rules"
	fi
	# 0644 as shipped; systemd-tmpfiles makes it 0640 root:climated once the
	# group exists (postinst).
	install -D -m 0644 "$tmp/climated.yaml" "$root/etc/climated/climated.yaml"
	doc=$root/usr/share/doc/climated
	install -d -m 0755 "$doc" "$root/usr/share/man/man1" "$root/usr/share/lintian/overrides"
	cat scripts/deb/copyright.head >"$doc/copyright"
	gzip -9n <"$tmp/dependencies.txt" >"$doc/dependencies.txt.gz"
	{
		echo "climated ($debver) unstable; urgency=medium"
		echo
		echo "  * Built from commit $commit of github.com/climated/climated."
		echo
		echo " -- $maintainer  $(date -u -R -d "@$SOURCE_DATE_EPOCH")"
	} | gzip -9n >"$doc/changelog.gz"
	gzip -9n <"$tmp/climated.1" >"$root/usr/share/man/man1/climated.1.gz"
	install -m 0644 scripts/deb/lintian-overrides "$root/usr/share/lintian/overrides/climated"

	install -d -m 0755 "$root/DEBIAN"
	for s in postinst prerm postrm; do
		sed "s/@ARM@/$arm/g" "scripts/deb/$s" >"$root/DEBIAN/$s"
		chmod 0755 "$root/DEBIAN/$s"
	done
	if [ "$a" = armhf ]; then
		install -m 0755 scripts/deb/preinst.armhf "$root/DEBIAN/preinst"
	fi
	echo /etc/climated/climated.yaml >"$root/DEBIAN/conffiles"
	# dpkg tracks conffiles' sums itself.
	(cd "$root" && find . -path ./DEBIAN -prune -o -path ./etc -prune -o -type f -print | sed 's|^\./||' | sort |
		xargs md5sum) >"$root/DEBIAN/md5sums"
	chmod 0644 "$root/DEBIAN/conffiles" "$root/DEBIAN/md5sums"
	cat >"$root/DEBIAN/control" <<-EOF
		Package: climated
		Version: $debver
		Architecture: $a
		Maintainer: $maintainer
		Installed-Size: $(du -sk --exclude=DEBIAN "$root" | cut -f1)
		Depends: systemd
		Section: net
		Priority: optional
		Homepage: https://github.com/climated/climated
		Description: home-climate hub: zone sensors in SQLite, served over MCP
		 climated records the climate of every zone of a house (rooms, outdoors,
		 the rain gauge) from I2C sensors on the hub, a GPIO rain gauge and MQTT
		 devices in an SQLite database, and serves it over the Model Context
		 Protocol, so that an assistant asked how warm it is answers from real
		 numbers. Without sensors it runs a simulated demo house.
		 .
		 This package runs it as a hardened systemd service under its own user,
		 configured in /etc/climated/climated.yaml, with its history in
		 /var/lib/climated.
	EOF
	out=$dist/climated_${debver}_$a.deb
	dpkg-deb --root-owner-group -Zxz --build "$root" "$out" >/dev/null
	echo "$out"
done
