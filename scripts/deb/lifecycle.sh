#!/usr/bin/env bash
# The package's life on a Debian machine, for scripts/deb-test.sh, which
# runs this inside a throwaway chroot (an overlay of its own machine):
# install, upgrade over an administrator's change, remove, reinstall and
# purge, first with systemd not running, then as if it were.
#
# Usage (as root, in the throwaway root only): lifecycle.sh V1.deb V2.deb
set -uo pipefail
v1=$1 v2=$2
passed=0 failed=0
ok() { passed=$((passed + 1)); }
bad() { failed=$((failed + 1)); echo "FAILED: $*"; }
check() {
	local what=$1
	shift
	if "$@"; then ok; else
		bad "$what"
		return 1
	fi
}
owner() { stat -c '%U:%G %a' "$1" 2>/dev/null; }
calls() { cat /tmp/calls 2>/dev/null; }

# Stand-ins that record what the maintainer scripts ask of systemd and
# udev. What works on files without a running systemd (systemctl preset,
# which deb-systemd-helper uses to enable, is-enabled ...) is passed on to
# the real systemctl; deb-systemd-helper, systemd-sysusers and
# systemd-tmpfiles are the real ones.
for c in deb-systemd-invoke udevadm; do
	printf '#!/bin/sh\necho "%s $*" >>/tmp/calls\n' "$c" >/usr/local/sbin/$c
	chmod 0755 /usr/local/sbin/$c
done
cat >/usr/local/sbin/systemctl <<'SHIM'
#!/bin/sh
echo "systemctl $*" >>/tmp/calls
case " $* " in
*" daemon-reload "* | *" start "* | *" stop "* | *" restart "* | *" reload "*) exit 0 ;;
esac
exec /bin/systemctl "$@"
SHIM
chmod 0755 /usr/local/sbin/systemctl

dpkg_do() { # dpkg_do ARGS...: run dpkg, show its output on failure
	: >/tmp/calls
	if ! dpkg --force-confold "$@" >/tmp/dpkg.out 2>&1; then
		cat /tmp/dpkg.out
		return 1
	fi
}

echo "-- without systemd running (a chroot, an image build, a container)"
check "dpkg -i" dpkg_do -i "$v1"
grep '^climated:' /tmp/dpkg.out | sed 's/^/   postinst says: /'
check "user climated, home /var/lib/climated, no login shell" \
	test "$(getent passwd climated | cut -d: -f6,7)" = /var/lib/climated:/usr/sbin/nologin
check "climated is in i2c and gpio" \
	test "$(id -nG climated | tr ' ' '\n' | grep -E '^(i2c|gpio)$' | sort | xargs)" = "gpio i2c"
check "/var/lib/climated climated:climated 750" test "$(owner /var/lib/climated)" = "climated:climated 750"
check "/etc/climated root:climated 750" test "$(owner /etc/climated)" = "root:climated 750"
check "climated.yaml root:climated 640" test "$(owner /etc/climated/climated.yaml)" = "root:climated 640"
check "enabled for multi-user.target" \
	test "$(readlink /etc/systemd/system/multi-user.target.wants/climated.service)" = /lib/systemd/system/climated.service
check "not started, no daemon-reload (systemd is not running)" \
	test -z "$(calls | grep -E 'daemon-reload|invoke (start|restart)')"

# The service's user can read its configuration, create the token and run
# the hub from it, as systemd would start it (StateDirectory= sets
# STATE_DIRECTORY).
check "the token command printed by postinst works" \
	runuser -u climated -- climated token --db /var/lib/climated/climated.db >/dev/null
check "token climated:climated 600" test "$(owner /var/lib/climated/token)" = "climated:climated 600"
# UMask=0077 as in the unit; setpriv execs, so $pid is the hub itself.
(umask 0077 && exec setpriv --reuid=climated --regid=climated --init-groups env STATE_DIRECTORY=/var/lib/climated \
	climated serve --config /etc/climated/climated.yaml --listen 127.0.0.1:0) 2>/tmp/serve.log &
pid=$!
for _ in $(seq 100); do
	grep -q 'msg="serving MCP"' /tmp/serve.log && break
	kill -0 $pid 2>/dev/null || break
	sleep 0.1
done
check "the hub serves as user climated from /etc/climated/climated.yaml" grep -q 'msg="serving MCP"' /tmp/serve.log ||
	cat /tmp/serve.log
kill -TERM $pid 2>/dev/null
status=0
wait $pid || status=$?
check "the hub stops with status 0" test $status -eq 0
check "its database in /var/lib/climated, climated:climated 600" \
	test "$(owner /var/lib/climated/climated.db)" = "climated:climated 600"
uid=$(id -u climated)

echo "# a local change" >>/etc/climated/climated.yaml

echo "-- systemd running (/run/systemd/system exists)"
mkdir -p /run/systemd/system
check "upgrade to version 2" dpkg_do -i "$v2"
check "the upgrade restarts the service after daemon-reload" \
	test "$(calls | grep -E 'daemon-reload|invoke' | xargs)" = "systemctl --system daemon-reload deb-systemd-invoke restart climated.service"
check "the administrator's configuration kept, the new default beside it" \
	sh -c 'grep -q "^# a local change" /etc/climated/climated.yaml && grep -q "version 2" /etc/climated/climated.yaml.dpkg-dist'
check "the history kept" test -s /var/lib/climated/climated.db
check "the same user" test "$(id -u climated)" = "$uid"

check "dpkg -r" dpkg_do -r climated
check "remove stops the service" sh -c 'grep -q "deb-systemd-invoke stop climated.service" /tmp/calls'
check "remove takes the binary and the unit" test ! -e /usr/bin/climated -a ! -e /lib/systemd/system/climated.service
check "remove keeps the configuration, the history and the user" \
	sh -c 'grep -q "^# a local change" /etc/climated/climated.yaml && test -s /var/lib/climated/climated.db && getent passwd climated >/dev/null'
check "remove masks the unit" test "$(readlink /etc/systemd/system/climated.service)" = /dev/null

check "reinstall" dpkg_do -i "$v2"
check "reinstall unmasks, enables and starts" \
	sh -c 'test ! -L /etc/systemd/system/climated.service &&
		test -L /etc/systemd/system/multi-user.target.wants/climated.service &&
		grep -Eq "deb-systemd-invoke (start|restart) climated.service" /tmp/calls'
check "reinstall keeps the history" test -s /var/lib/climated/climated.db

check "dpkg -P" dpkg_do -P climated
check "purge removes /etc/climated and /var/lib/climated" test ! -e /etc/climated -a ! -e /var/lib/climated
check "purge removes the user and its group" sh -c '! getent passwd climated >/dev/null && ! getent group climated >/dev/null'
check "purge leaves i2c and gpio (other software uses them)" sh -c 'getent group i2c >/dev/null && getent group gpio >/dev/null'
check "purge removes the links and deb-systemd-helper's state" \
	test -z "$(find /etc/systemd /var/lib/systemd/deb-systemd-helper-enabled /var/lib/systemd/deb-systemd-helper-masked -name 'climated*' 2>/dev/null)"
check "dpkg forgets the package" sh -c '! dpkg -s climated >/dev/null 2>&1'

echo "lifecycle: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
