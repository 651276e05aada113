#!/usr/bin/env bash
# Installs climated onto a hub over ssh and starts it as a systemd service.
#
# Usage: scripts/install.sh [USER@]HOST
#        scripts/install.sh --uninstall [--purge] [USER@]HOST
#
# --uninstall stops and disables the service and removes what install.sh
# placed; the configuration, the history, the token and the user stay
# unless --purge deletes them too (the i2c and gpio groups stay: other
# software uses them).
#
# It finds the hub's architecture, builds the matching static binary (or
# takes it from DIST), copies it to /usr/bin/climated with the unit
# (/etc/systemd/system/climated.service), the user (/etc/sysusers.d),
# the directories (/etc/tmpfiles.d) and, on ARM, the device rules
# (/etc/udev/rules.d); writes a starter /etc/climated/climated.yaml unless
# one exists; checks that I²C is on; enables and (re)starts the service,
# waits for it, and prints the MCP URL and where the token is. Run it
# again to upgrade: the configuration and the history stay.
#
# Environment:
#   SSH, SCP  the commands to reach the hub (default: ssh, scp); e.g.
#             SSH="ssh -p 2222" SCP="scp -P 2222"
#   DIST      a directory with climated-linux-<arch> binaries to take
#             instead of building (scripts/build.sh)
#   ROOT      a prefix on the hub for every file placed and read (tests)
#   WAIT      seconds to wait for the service to be active (60)
#
# Where the hub's user is not root, the commands there run with sudo.
case "${1:-}" in -h | --help) sed -n '2,/^[^#]/s/^# \{0,1\}//p' "$0"; exit 0 ;; esac # the header above is the usage
set -euo pipefail
cd "$(dirname "$0")/.."

uninstall=false
purge=false
while [ $# -gt 1 ]; do
	case $1 in
	--uninstall) uninstall=true ;;
	--purge) purge=true ;;
	*) break ;;
	esac
	shift
done
if [ $# -ne 1 ] || [ -z "$1" ] || [ "${1#-}" != "$1" ] || { $purge && ! $uninstall; }; then
	echo "usage: scripts/install.sh [USER@]HOST" >&2
	echo "       scripts/install.sh --uninstall [--purge] [USER@]HOST" >&2
	exit 2
fi
host=$1
hostname=${host#*@}
read -r -a ssh <<<"${SSH:-ssh}"
read -r -a scp <<<"${SCP:-scp}"
root=${ROOT:-}
wait_s=${WAIT:-60}
tty=()
[ -t 0 ] && tty=(-t) # lets sudo ask for a password

on_hub() { "${ssh[@]}" "$host" "$@"; }

if $uninstall; then
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	# What runs on the hub, as root: the reverse of the install below.
	cat >"$tmp/uninstall-on-hub.sh" <<'HUB'
set -eu
root=$1 purge=$2
say() { echo "uninstall: $*"; }
if dpkg-query ${root:+--root="$root"} -W -f='${Status}' climated 2>/dev/null | grep -q 'install ok installed'; then
	say "climated is installed from its Debian package here: sudo apt remove climated (apt purge also deletes its data)" >&2
	exit 1
fi
systemctl disable --now climated.service || true
rm -f "$root/usr/bin/climated" "$root/etc/systemd/system/climated.service" "$root/etc/sysusers.d/climated.conf" \
	"$root/etc/tmpfiles.d/climated.conf" "$root/etc/udev/rules.d/60-climated.rules"
systemctl daemon-reload || true
say "removed the binary, the unit, the sysusers.d and tmpfiles.d files and the udev rules"
if [ "$purge" = true ]; then
	rm -rf "$root/etc/climated" "$root/var/lib/climated"
	# userdel leaves the group where USERGROUPS_ENAB is off.
	userdel ${root:+--root "$root"} climated 2>/dev/null || true
	groupdel ${root:+--root "$root"} climated 2>/dev/null || true
	say "deleted /etc/climated, /var/lib/climated (the history, the token) and the user climated"
else
	say "kept /etc/climated (the configuration), /var/lib/climated (the history, the token) and the user climated; --purge deletes them"
fi
HUB
	remote=$(on_hub mktemp -d)
	"${scp[@]}" -q "$tmp/uninstall-on-hub.sh" "$host:$remote/"
	sudo=""
	[ "$(on_hub id -u)" = 0 ] || sudo=sudo
	status=0
	"${ssh[@]}" "${tty[@]}" "$host" "$sudo sh $remote/uninstall-on-hub.sh '$root' $purge" || status=$?
	on_hub "rm -rf $remote" || true
	exit $status
fi

# The hub's architecture. uname -m alone misleads on Raspberry Pi OS's
# 32-bit release, which boots a 64-bit kernel (aarch64) under an armhf
# userland: systemd's SystemCallArchitectures=native would then refuse an
# arm64 binary. The userland decides.
read -r machine dpkgarch bits < <(on_hub 'echo "$(uname -m) $(dpkg --print-architecture 2>/dev/null || echo none) $(getconf LONG_BIT 2>/dev/null || echo 0)"')
case $dpkgarch/$machine/$bits in
arm64/* | none/aarch64/64) target=arm64 ;;
amd64/* | none/x86_64/64) target=amd64 ;;
armhf/armv6l/* | armel/armv6l/* | none/armv6l/*) target=armv6 ;;
armhf/* | none/armv7l/* | none/armv8l/* | none/aarch64/32) target=armv7 ;;
*)
	echo "install: $hostname is $machine ($dpkgarch userland, $bits-bit): climated is built for arm64, armv7, armv6 and amd64" >&2
	exit 1
	;;
esac
arm=false
[ "$target" = amd64 ] || arm=true
echo "install: $hostname is $machine ($dpkgarch userland): climated-linux-$target"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [ -n "${DIST:-}" ]; then
	bin=$DIST/climated-linux-$target
	[ -f "$bin" ] || { echo "install: $bin missing (scripts/build.sh builds it)" >&2; exit 1; }
else
	DIST=$tmp TARGETS=$target scripts/build.sh >/dev/null
	bin=$tmp/climated-linux-$target
fi

# What runs on the hub, as root.
cat >"$tmp/install-on-hub.sh" <<'HUB'
set -eu
src=$1 root=$2 arm=$3 wait_s=$4 hostname=$5
say() { echo "install: $*"; }

if dpkg-query ${root:+--root="$root"} -W -f='${Status}' climated 2>/dev/null | grep -q 'install ok installed'; then
	say "climated is installed from its Debian package here: upgrade it with apt or dpkg -i instead" >&2
	exit 1
fi

install -d -m 0755 "$root/usr/bin" "$root/etc/systemd/system" "$root/etc/sysusers.d" "$root/etc/tmpfiles.d"
# Into place by rename: a running hub keeps its binary until the restart.
install -m 0755 "$src/climated" "$root/usr/bin/climated.new"
mv -f "$root/usr/bin/climated.new" "$root/usr/bin/climated"
install -m 0644 "$src/climated.service" "$root/etc/systemd/system/climated.service"
install -m 0644 "$src/climated.sysusers" "$root/etc/sysusers.d/climated.conf"
install -m 0644 "$src/climated.tmpfiles" "$root/etc/tmpfiles.d/climated.conf"
if $arm; then
	install -d -m 0755 "$root/etc/udev/rules.d"
	install -m 0644 "$src/60-climated.rules" "$root/etc/udev/rules.d/60-climated.rules"
fi
systemd-sysusers ${root:+--root="$root"} climated.conf

conf=$root/etc/climated/climated.yaml
if [ -e "$conf" ]; then
	say "keeping the configuration in /etc/climated/climated.yaml"
else
	install -d -m 0750 "$root/etc/climated"
	if ! "$root/usr/bin/climated" config example --starter >"$conf.new" 2>/dev/null &&
		! "$root/usr/bin/climated" config example >"$conf.new" 2>/dev/null; then
		# A binary without `climated config example`.
		cat >"$conf.new" <<-'EOF'
			# climated's configuration. No sensors listed: climated runs its demo
			# house. `climated scan` prints the lines for the chips on the I²C bus.
			# Secrets (CLIMATED_MQTT_PASSWORD for mqtt.password_env) belong in
			# /etc/climated/environment, one VAR=value a line, mode 0600.
			listen: 127.0.0.1:8473
		EOF
	fi
	mv "$conf.new" "$conf"
	say "wrote a starter configuration to /etc/climated/climated.yaml"
fi
# Owners and modes: /etc/climated root:climated 0750, the configuration
# 0640, /var/lib/climated climated 0750.
systemd-tmpfiles ${root:+--root="$root"} --create climated.conf

if $arm; then
	if [ -z "$root" ] && [ -d /run/udev ] && command -v udevadm >/dev/null; then
		udevadm control --reload-rules || true
		udevadm trigger --subsystem-match=i2c-dev --subsystem-match=gpio || true
	fi
	if [ -e "$root/dev/i2c-1" ]; then
		say "I²C is on (/dev/i2c-1)"
	else
		say "I²C is off: there is no /dev/i2c-1. To read sensors on the header, turn it on and reboot:"
		if command -v raspi-config >/dev/null; then
			say "  sudo raspi-config nonint do_i2c 0 && sudo reboot"
		fi
		for f in /boot/firmware/config.txt /boot/config.txt; do
			if [ -e "$root$f" ]; then
				say "  or add dtparam=i2c_arm=on to $f, then sudo reboot"
				break
			fi
		done
		[ -e "$root/boot/firmware/config.txt" ] || [ -e "$root/boot/config.txt" ] ||
			say "  or add dtparam=i2c_arm=on to /boot/firmware/config.txt (/boot/config.txt before Bookworm), then sudo reboot"
		say "  Until then climated runs the demo house and MQTT sensors only."
	fi
fi

systemctl daemon-reload
systemctl enable climated.service
# A restart rather than enable --now: an upgrade must run the new binary.
# With Type=notify it returns once the hub is ready (or has failed).
systemctl restart climated.service || true
i=0
until systemctl is-active --quiet climated.service; do
	i=$((i + 1))
	if [ "$i" -gt "$wait_s" ]; then
		say "climated did not become active in ${wait_s}s:" >&2
		systemctl status --no-pager climated.service >&2 || true
		journalctl -u climated.service -n 30 --no-pager >&2 || true
		exit 1
	fi
	sleep 1
done
say "climated is active: systemctl status climated; journalctl -u climated -f"

listen=$(sed -n 's/^listen:[[:space:]]*["'\'']\{0,1\}\([^"'\''#[:space:]]*\).*/\1/p' "$conf" | tail -1)
listen=${listen:-127.0.0.1:8473}
port=${listen##*:}
addr=${listen%:*}
case $addr in
127.* | localhost | "[::1]")
	say "MCP on the hub: http://$listen/mcp (loopback only, no token needed)"
	say "  from another machine: ssh -L $port:127.0.0.1:$port $hostname, then http://127.0.0.1:$port/mcp;"
	say "  or stdio: ssh $hostname sudo -u climated climated mcp --db /var/lib/climated/climated.db"
	;;
*)
	case $addr in "" | 0.0.0.0 | "[::]") addr=$hostname ;; esac
	say "MCP: http://$addr:$port/mcp (every request needs Authorization: Bearer <token>)"
	;;
esac
say "the token is in /var/lib/climated/token; print it with"
say "  ssh $hostname sudo -u climated climated token --db /var/lib/climated/climated.db"
HUB

remote=$(on_hub mktemp -d)
"${scp[@]}" -q "$bin" "$host:$remote/climated"
"${scp[@]}" -q systemd/climated.service systemd/climated.sysusers systemd/climated.tmpfiles \
	systemd/60-climated.rules "$tmp/install-on-hub.sh" "$host:$remote/"
sudo=""
[ "$(on_hub id -u)" = 0 ] || sudo=sudo
status=0
"${ssh[@]}" "${tty[@]}" "$host" "$sudo sh $remote/install-on-hub.sh $remote '$root' $arm $wait_s $hostname" || status=$?
on_hub "rm -rf $remote" || true
exit $status
