#!/usr/bin/env bash
# Tests scripts/install.sh against fake hubs: its ssh and scp are local
# stand-ins that run the commands on this machine with every file placed
# under a throwaway ROOT. systemd-sysusers and systemd-tmpfiles are the real
# ones (with --root); systemctl, journalctl and udevadm are stand-ins that
# record their calls, and uname, dpkg and getconf stand-ins pretend to be
# each kind of hub for the architecture detection.
#
# Usage: scripts/install-test.sh [DIST_DIR]
#   Without DIST_DIR, builds the amd64 binary into a temporary directory.
case "${1:-}" in -h | --help) sed -n '2,/^[^#]/s/^# \{0,1\}//p' "$0"; exit 0 ;; esac # the header above is the usage
set -euo pipefail
cd "$(dirname "$0")/.."

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0
failed=0
ok() { passed=$((passed + 1)); }
bad() { failed=$((failed + 1)); echo "install-test: FAILED: $*"; }
check() {
	local what=$1
	shift
	if "$@"; then ok; else bad "$what"; fi
}

if [ $# -gt 0 ]; then
	dist=$1
else
	dist=$tmp/dist
	DIST=$dist TARGETS=amd64 scripts/build.sh >/dev/null
fi

# The fake hub's commands.
mkdir -p "$tmp/bin" "$tmp/shims" "$tmp/arch" "$tmp/hubtmp"
cat >"$tmp/bin/ssh" <<EOF
#!/usr/bin/env bash
# ssh [OPTIONS] HOST COMMAND...: runs COMMAND here, as ssh would there.
while [ "\${1#-}" != "\$1" ]; do
	case \$1 in -p | -o | -i | -l | -F | -J) shift 2 ;; *) shift ;; esac
done
echo "ssh \$1" >>"$tmp/ssh.log"
shift
TMPDIR="$tmp/hubtmp" PATH="$tmp/arch:$tmp/shims:\$PATH" exec sh -c "\$*"
EOF
cat >"$tmp/bin/scp" <<EOF
#!/usr/bin/env bash
# scp [OPTIONS] FILE... HOST:DIR: copies here.
args=()
while [ \$# -gt 0 ]; do
	case \$1 in -P | -o | -i | -F | -J) shift 2 ;; -*) shift ;; *) args+=("\$1"); shift ;; esac
done
dest=\${args[-1]}
unset 'args[-1]'
cp "\${args[@]}" "\${dest#*:}"
EOF
cat >"$tmp/shims/systemctl" <<EOF
#!/bin/sh
echo "systemctl \$*" >>"$tmp/calls"
case "\$1 \$2" in
"is-active --quiet") [ "\${FAKE_ACTIVE:-yes}" = yes ] ;;
status*) echo "● climated.service - stand-in status" ;;
esac
EOF
printf '#!/bin/sh\necho "journalctl $*" >>"%s/calls"\necho "stand-in journal line"\n' "$tmp" >"$tmp/shims/journalctl"
printf '#!/bin/sh\necho "udevadm $*" >>"%s/calls"\n' "$tmp" >"$tmp/shims/udevadm"
chmod +x "$tmp/bin/"* "$tmp/shims/"*

# install HUB [VAR=value...]: runs install.sh against the fake hub whose
# root is $tmp/HUB; output in $tmp/out, status in $status.
install_to() {
	local hub=$1
	shift
	mkdir -p "$tmp/$hub"
	: >"$tmp/calls"
	status=0
	env SSH="$tmp/bin/ssh -o BatchMode=yes" SCP="$tmp/bin/scp" ROOT="$tmp/$hub" WAIT=2 "$@" \
		scripts/install.sh "pi@$hub.local" >"$tmp/out" 2>&1 </dev/null || status=$?
}
mode() { stat -c '%u:%g %a' "$1" 2>/dev/null; }

echo "== fresh install (amd64, the real binary)"
install_to hub DIST="$dist"
sed 's/^/   /' "$tmp/out"
h=$tmp/hub
check "install.sh exits 0" test "$status" -eq 0
check "the binary in /usr/bin, 0755, and it runs" \
	sh -c "cmp -s '$dist/climated-linux-amd64' '$h/usr/bin/climated' && [ \"\$(stat -c %a '$h/usr/bin/climated')\" = 755 ] && '$h/usr/bin/climated' version >/dev/null"
check "the unit in /etc/systemd/system" cmp -s systemd/climated.service "$h/etc/systemd/system/climated.service"
check "sysusers.d and tmpfiles.d files in /etc" \
	sh -c "cmp -s systemd/climated.sysusers '$h/etc/sysusers.d/climated.conf' && cmp -s systemd/climated.tmpfiles '$h/etc/tmpfiles.d/climated.conf'"
check "no udev rules on a PC" test ! -e "$h/etc/udev/rules.d/60-climated.rules"
uid=$(awk -F: '$1 == "climated" { print $3 }' "$h/etc/passwd" 2>/dev/null)
check "user climated created (in the hub's /etc/passwd)" test -n "$uid"
check "climated in i2c and gpio" \
	test "$(awk -F: '$4 ~ /(^|,)climated(,|$)/ { print $1 }' "$h/etc/group" | sort | xargs)" = "gpio i2c"
if example=$("$h/usr/bin/climated" config example --starter 2>/dev/null); then
	check "the starter configuration is climated config example --starter" test "$example" = "$(cat "$h/etc/climated/climated.yaml")"
	check "and it passes climated config check" sh -c "'$h/usr/bin/climated' config check '$h/etc/climated/climated.yaml' >/dev/null"
else
	check "the starter configuration (a binary without config example)" grep -qx 'listen: 127.0.0.1:8473' "$h/etc/climated/climated.yaml"
fi
check "/etc/climated 0:climated 750, climated.yaml 0:climated 640, /var/lib/climated climated 750" \
	test "$(mode "$h/etc/climated") $(mode "$h/etc/climated/climated.yaml") $(mode "$h/var/lib/climated")" = "0:$uid 750 0:$uid 640 $uid:$uid 750"
check "daemon-reload, enable, restart, then is-active" \
	test "$(grep -v is-active "$tmp/calls" | xargs)" = "systemctl daemon-reload systemctl enable climated.service systemctl restart climated.service"
check "waited for is-active" grep -q 'systemctl is-active --quiet climated.service' "$tmp/calls"
check "prints the loopback URL" grep -q 'MCP on the hub: http://127.0.0.1:8473/mcp' "$tmp/out"
check "prints where the token is and how to print it" \
	sh -c "grep -q 'token is in /var/lib/climated/token' '$tmp/out' && grep -q 'sudo -u climated climated token --db /var/lib/climated/climated.db' '$tmp/out'"
check "the hub's temporary directory removed" test -z "$(ls -A "$tmp/hubtmp")"

echo "== again, over a configuration of the owner's"
printf '# mine\nlisten: 0.0.0.0:9000\n' >"$h/etc/climated/climated.yaml"
before=$(cat "$h/etc/climated/climated.yaml")
install_to hub DIST="$dist"
sed 's/^/   /' "$tmp/out"
check "install.sh exits 0" test "$status" -eq 0
check "the configuration is not overwritten" test "$(cat "$h/etc/climated/climated.yaml")" = "$before"
check "says it keeps it" grep -q 'keeping the configuration' "$tmp/out"
check "the same user" test "$(awk -F: '$1 == "climated" { print $3 }' "$h/etc/passwd")" = "$uid"
check "prints the LAN URL from listen: and that it needs the token" \
	grep -q 'MCP: http://hub.local:9000/mcp (every request needs Authorization: Bearer <token>)' "$tmp/out"
check "restarts, so that the new binary runs" grep -q 'systemctl restart climated.service' "$tmp/calls"

echo "== a service that does not come up"
install_to hub DIST="$dist" FAKE_ACTIVE=no
check "install.sh fails" test "$status" -ne 0
check "and shows the status and the journal" \
	sh -c "grep -q 'did not become active' '$tmp/out' && grep -q 'stand-in status' '$tmp/out' && grep -q 'stand-in journal line' '$tmp/out'"

# uninstall_from HUB [--purge]: install.sh --uninstall against the fake
# hub whose root is $tmp/HUB; output in $tmp/out, status in $status.
uninstall_from() {
	local hub=$1
	shift
	: >"$tmp/calls"
	status=0
	env SSH="$tmp/bin/ssh -o BatchMode=yes" SCP="$tmp/bin/scp" ROOT="$tmp/$hub" \
		scripts/install.sh --uninstall "$@" "pi@$hub.local" >"$tmp/out" 2>&1 </dev/null || status=$?
}

echo "== uninstall: the service and what install.sh placed go, the data stays"
uninstall_from hub
sed 's/^/   /' "$tmp/out"
check "uninstall exits 0" test "$status" -eq 0
check "disable --now, then daemon-reload" test "$(xargs <"$tmp/calls")" = "systemctl disable --now climated.service systemctl daemon-reload"
check "the binary, the unit, the sysusers.d and tmpfiles.d files gone" \
	test -z "$(ls "$h/usr/bin/climated" "$h/etc/systemd/system/climated.service" "$h/etc/sysusers.d/climated.conf" "$h/etc/tmpfiles.d/climated.conf" 2>/dev/null)"
check "the configuration, the history's directory and the user kept" \
	sh -c "[ -f '$h/etc/climated/climated.yaml' ] && [ -d '$h/var/lib/climated' ] && grep -q '^climated:' '$h/etc/passwd'"
check "says what it kept and how to delete it" grep -q 'kept /etc/climated.*--purge deletes them' "$tmp/out"

echo "== uninstall --purge: the configuration, the history and the user go too"
uninstall_from hub --purge
sed 's/^/   /' "$tmp/out"
check "uninstall --purge exits 0" test "$status" -eq 0
check "/etc/climated and /var/lib/climated deleted" test -z "$(ls -d "$h/etc/climated" "$h/var/lib/climated" 2>/dev/null)"
check "the user and group climated deleted, i2c and gpio kept" \
	sh -c "! grep -q '^climated:' '$h/etc/passwd' '$h/etc/group' && grep -q '^i2c:' '$h/etc/group' && grep -q '^gpio:' '$h/etc/group'"
check "a wrong use is refused" sh -c "! scripts/install.sh --purge pi@hub.local 2>/dev/null"

echo "== the architecture of each kind of hub"
mkdir -p "$tmp/standins"
for t in arm64 armv6 armv7 amd64; do
	printf '#!/bin/sh\n# stand-in %s\n[ "$1 $2" = "config example" ] && echo "listen: 127.0.0.1:8473"\nexit 0\n' "$t" >"$tmp/standins/climated-linux-$t"
	chmod +x "$tmp/standins/climated-linux-$t"
done
# uname -m, dpkg --print-architecture, getconf LONG_BIT -> the binary
while read -r machine dpkgarch bits want what; do
	printf '#!/bin/sh\necho %s\n' "$machine" >"$tmp/arch/uname"
	if [ "$dpkgarch" = none ]; then
		printf '#!/bin/sh\nexit 127\n' >"$tmp/arch/dpkg"
	else
		printf '#!/bin/sh\necho %s\n' "$dpkgarch" >"$tmp/arch/dpkg"
	fi
	printf '#!/bin/sh\necho %s\n' "$bits" >"$tmp/arch/getconf"
	chmod +x "$tmp/arch/"*
	rm -rf "$tmp/archhub"
	install_to archhub DIST="$tmp/standins"
	if [ "$want" = refused ]; then
		check "$what: refused" sh -c "[ $status -ne 0 ] && grep -q 'climated is built for' '$tmp/out'"
		continue
	fi
	check "$what ($machine, $dpkgarch, $bits-bit): climated-linux-$want" \
		sh -c "[ $status -eq 0 ] && grep -q '# stand-in $want\$' '$tmp/archhub/usr/bin/climated'"
	if [ "$want" != amd64 ]; then
		check "$what: udev rules for i2c and gpio" test -f "$tmp/archhub/etc/udev/rules.d/60-climated.rules"
		check "$what: says I²C is off and how to turn it on" \
			sh -c "grep -q 'I²C is off' '$tmp/out' && grep -q 'dtparam=i2c_arm=on' '$tmp/out'"
	fi
done <<'EOF'
aarch64 arm64 64 arm64 Raspberry-Pi-OS-64-bit
aarch64 armhf 32 armv7 Raspberry-Pi-OS-32-bit-on-a-64-bit-kernel
armv7l armhf 32 armv7 Pi-2
armv6l armhf 32 armv6 Pi-Zero
aarch64 none 64 arm64 no-dpkg-64-bit
armv7l none 32 armv7 no-dpkg-ARMv7
x86_64 amd64 64 amd64 PC
riscv64 riscv64 64 refused RISC-V
EOF

# I²C on, on a Bookworm Pi.
printf '#!/bin/sh\necho aarch64\n' >"$tmp/arch/uname"
printf '#!/bin/sh\necho arm64\n' >"$tmp/arch/dpkg"
printf '#!/bin/sh\necho 64\n' >"$tmp/arch/getconf"
mkdir -p "$tmp/archhub/dev" "$tmp/archhub/boot/firmware"
touch "$tmp/archhub/boot/firmware/config.txt"
rm -f "$tmp/archhub/dev/i2c-1"
install_to archhub DIST="$tmp/standins"
check "Bookworm: names /boot/firmware/config.txt" grep -q 'dtparam=i2c_arm=on to /boot/firmware/config.txt, then' "$tmp/out"
touch "$tmp/archhub/dev/i2c-1"
install_to archhub DIST="$tmp/standins"
check "I²C on: says so" sh -c "[ $status -eq 0 ] && grep -q 'I²C is on' '$tmp/out' && ! grep -q 'I²C is off' '$tmp/out'"
check "nothing left in the hubs' temporary directories" test -z "$(ls -A "$tmp/hubtmp")"

echo "install-test: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
