#!/usr/bin/env bash
# The amd64 package under systemd itself, for scripts/deb-test.sh: boots a
# container with systemd-nspawn (private network: loopback only) from a
# copy-on-write overlay of this machine, installs the package there and
# checks the hardened unit as systemd runs it: Type=notify, the user and
# its groups, no capabilities, the system-call filter, the watchdog
# restarting a stuck hub, a clean stop, upgrade, remove and purge.
#
# Usage (as root, in a mount namespace of its own: unshare --mount
# --propagation private): boot-test.sh WORKDIR V1.deb V2.deb
# Exits 0 when all passed, 1 when a check failed, 77 when no container
# could be booted here.
set -uo pipefail
work=$1 v1=$2 v2=$3
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

mount -t tmpfs tmpfs "$work"
mkdir "$work/upper" "$work/work" "$work/root"
mount -t overlay overlay -o "lowerdir=/,upperdir=$work/upper,workdir=$work/work" "$work/root"
# nspawn keeps its state in /run/systemd/nspawn: on a tmpfs of this
# namespace, not on the machine's /run.
mount -t tmpfs tmpfs /run
r=$work/root
cp "$v1" "$r/opt/climated_1.deb"
cp "$v2" "$r/opt/climated_2.deb"
# An image's "start no services" policy (Docker's policy-rc.d): here the
# package's own start is what is tested.
rm -f "$r/usr/sbin/policy-rc.d"

timeout 300 systemd-nspawn -D "$r" --boot --register=no --keep-unit --private-network \
	-M climated-test >"$work/console" 2>&1 &
nspawn=$!
leader=""
# Power the container off; if it does not go within 10 s, kill its init,
# which takes every process of its PID namespace with it.
stop() {
	[ -n "$leader" ] && timeout 10 nsenter -t "$leader" -a systemctl poweroff >/dev/null 2>&1
	for _ in $(seq 50); do kill -0 $nspawn 2>/dev/null || break; sleep 0.2; done
	[ -n "$leader" ] && kill -KILL "$leader" 2>/dev/null
	wait $nspawn 2>/dev/null
}
trap stop EXIT
cx() { timeout 60 nsenter -t "$leader" -a env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin "$@"; }
show() { cx systemctl show -p "$1" --value climated.service; }

# The container's init, then its boot: running (or degraded) within 90 s.
state=""
for _ in $(seq 450); do
	kill -0 $nspawn 2>/dev/null || break
	if [ -z "$leader" ]; then
		nsp=$(pgrep -P $nspawn -x systemd-nspawn)
		[ -n "$nsp" ] && leader=$(pgrep -P "$nsp" -x systemd)
	else
		state=$(cx systemctl is-system-running 2>/dev/null)
		case $state in running | degraded) break ;; esac
	fi
	sleep 0.2
done
case $state in
running | degraded) ;;
*)
	tail -5 "$work/console"
	echo "no container booted here (${state:-no systemd})"
	exit 77
	;;
esac
echo "-- booted a container with systemd $(cx systemctl --version | head -1 | cut -d' ' -f2) ($state)"

check "dpkg -i" sh -c "timeout 120 nsenter -t $leader -a env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin dpkg -i /opt/climated_1.deb >$work/dpkg.out 2>&1" ||
	cat "$work/dpkg.out"
check "postinst started it and it said READY=1 (Type=notify, active)" \
	test "$(show Type) $(show ActiveState) $(show SubState)" = "notify active running"
check "healthz answers on loopback" sh -c "timeout 10 nsenter -t $leader -a curl -sf -m 5 http://127.0.0.1:8473/healthz | grep -q ok"
check "get_climate's structure at /api/climate" \
	sh -c "timeout 10 nsenter -t $leader -a curl -sf -m 5 http://127.0.0.1:8473/api/climate | grep -q '\"Indoor\":{.*\"Temperature\"'"
pid=$(show MainPID)
status=$(cx cat /proc/"$pid"/status)
check "runs as climated:climated with i2c and gpio" \
	test "$(cx ps -o user=,group= -p "$pid" | xargs) $(cx ps -o supgrp= -p "$pid" | tr ',' '\n' | sort | xargs)" = "climated climated climated gpio i2c"
check "no capabilities, no new privileges, a seccomp filter" \
	sh -c "echo '$status' | grep -q '^CapEff:.*0000000000000000' && echo '$status' | grep -q '^CapBnd:.*0000000000000000' &&
		echo '$status' | grep -q '^NoNewPrivs:.*1' && echo '$status' | grep -q '^Seccomp:.*2'"
check "the database 0600 in /var/lib/climated (UMask=0077)" \
	test "$(cx stat -c '%U %a' /var/lib/climated/climated.db)" = "climated 600"
score=$(cx systemd-analyze security --no-pager climated.service | sed -n 's/.*Overall exposure level for climated.service: \([0-9.]*\).*/\1/p')
echo "   systemd-analyze security (online, in the container): exposure $score"
check "online exposure below 2.0" awk -v s="${score:-99}" 'BEGIN { exit !(s < 2.0) }'
check "systemd logged nothing about the unit's settings" \
	test -z "$(cx journalctl -b --no-pager -o cat _PID=1 | grep -i 'climated' | grep -v -E '^(Starting|Started|Stopping|Stopped|Reloading|climated.service: (Deactivated|Consumed))')"

# The README's recipes on the installed hub, as written (runuser for sudo,
# which the image may lack): the file passes config check; as the
# service's user, token, doctor and a standalone climated mcp; as anyone
# else, the bridge to the hub on loopback, and advice on whom to run as.
as() { local u=$1; shift; timeout 20 nsenter -t "$leader" -a env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin runuser -u "$u" -- "$@"; }
mcpcall() { # mcpcall USER ARGS...: get_climate through climated ARGS on stdio
	{
		echo '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"boot-test","version":"1"}}}'
		echo '{"jsonrpc":"2.0","method":"notifications/initialized"}'
		echo '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"get_climate","arguments":{}}}'
		sleep 3
	} | as "$@" 2>/dev/null | grep -q '"id":2,"result":{.*"content":\[{"type":"text"'
}
check "climated config check: the installed file" sh -c "timeout 10 nsenter -t $leader -a climated config check | grep -q ': ok ('"
check "sudo -u climated climated token: the token file's" test "$(as climated climated token)" = "$(cx cat /var/lib/climated/token)"
check "sudo -u climated climated doctor: no check failed" as climated climated doctor >/dev/null
check "sudo -u climated climated mcp: get_climate" mcpcall climated climated mcp
check "another user: climated mcp --remote http://127.0.0.1:8473/mcp" mcpcall nobody climated mcp --remote http://127.0.0.1:8473/mcp
check "another user: climated token says whom to run as" grep -q 'join group climated' <<<"$(as nobody climated token 2>&1)"
check "climated connect claude-desktop: the bridge to the running hub" grep -qF '"args": ["mcp", "--remote", "http://127.0.0.1:8473/mcp"]' <<<"$(cx climated connect claude-desktop)"

# systemctl reload: SIGHUP through ExecReload, the same process carries on
# and says it read the configuration again.
pid=$(show MainPID)
check "systemctl reload: same process, configuration reloaded" sh -c "timeout 30 nsenter -t $leader -a systemctl reload climated.service &&
	[ \"\$(timeout 10 nsenter -t $leader -a systemctl show -p MainPID --value climated.service)\" = $pid ] &&
	timeout 10 nsenter -t $leader -a journalctl -b --no-pager -u climated.service | grep -q 'configuration reloaded'"

# Avahi (docs/discovery.md): with avahi-daemon's socket there (the real
# daemon where the image has it, else a stand-in in perl-base that takes
# connections) and the hub on every address, the unit hands the hub's
# service file to Avahi, and takes it back when the hub stops; on loopback
# (the starter configuration) it hands none.
standin=""
if ! cx test -S /run/avahi-daemon/socket; then
	cx mkdir -p /run/avahi-daemon /etc/avahi/services
	timeout 120 nsenter -t "$leader" -a env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin perl -MIO::Socket::UNIX \
		-e 'my $s = IO::Socket::UNIX->new(Local => "/run/avahi-daemon/socket", Listen => 5) or die $!; while (my $c = $s->accept) { close $c }' &
	standin=$!
	for _ in $(seq 50); do cx test -S /run/avahi-daemon/socket && break; sleep 0.1; done
fi
echo "   Avahi: ${standin:+a stand-in for }avahi-daemon's socket"
cx cp /etc/climated/climated.yaml /root/climated.yaml
cx sed -i 's/^listen:.*/listen: 0.0.0.0:8473/' /etc/climated/climated.yaml
cx systemctl restart climated.service
check "Avahi: the unit hands it the hub's _mcp._tcp service (port, auth)" \
	sh -c "timeout 10 nsenter -t $leader -a cat /etc/avahi/services/climated.service | tr -d '\n ' |
		grep -q '<type>_mcp._tcp</type><port>8473</port><txt-record>txtvers=1</txt-record><txt-record>path=/mcp</txt-record><txt-record>versions=[0-9,-]*</txt-record><txt-record>auth=bearer</txt-record>'"
# The hub looks for the file every 100 ms once the unit has copied it.
check "Avahi: the hub saw it handed over and said Avahi announces it" sh -c "for i in \$(seq 50); do
		timeout 10 nsenter -t $leader -a journalctl -b --no-pager -u climated.service | grep -q 'Avahi announces the hub' && exit 0; sleep 0.1; done; exit 1"
check "Avahi: the file is readable by avahi-daemon (0644)" test "$(cx stat -c %a /etc/avahi/services/climated.service)" = 644
if [ -z "$standin" ]; then # the real daemon reads the file (inotify)
	check "Avahi: avahi-daemon loaded the service file" sh -c "for i in \$(seq 50); do
		timeout 10 nsenter -t $leader -a journalctl -b --no-pager -u avahi-daemon.service | grep -q 'Loading service file .*climated.service' && exit 0; sleep 0.1; done; exit 1"
fi
cx systemctl stop climated.service
check "Avahi: the service file goes when the hub stops" test -z "$(cx ls /etc/avahi/services/climated.service 2>/dev/null)"
cx cp /root/climated.yaml /etc/climated/climated.yaml
cx systemctl start climated.service
check "Avahi: a hub on loopback hands none" test -z "$(cx ls /etc/avahi/services/climated.service 2>/dev/null)"
if [ -n "$standin" ]; then
	kill "$standin" 2>/dev/null
	cx rm -rf /run/avahi-daemon
fi

# The watchdog, shortened for the test: fed while the hub runs, and a
# stuck hub (SIGSTOP) is killed with SIGABRT and restarted.
cx mkdir -p /run/systemd/system/climated.service.d
cx sh -c 'printf "[Service]\nWatchdogSec=2s\nRestartSec=1s\n" >/run/systemd/system/climated.service.d/watchdog.conf'
cx systemctl daemon-reload
cx systemctl restart climated.service
sleep 5
check "fed: still running after 2.5 watchdog periods" test "$(show ActiveState) $(show NRestarts)" = "active 0"
cx kill -STOP "$(show MainPID)"
for _ in $(seq 50); do [ "$(show NRestarts)" = 1 ] && [ "$(show ActiveState)" = active ] && break; sleep 0.2; done
check "stuck: killed by the watchdog and restarted" \
	sh -c "[ \"\$(timeout 10 nsenter -t $leader -a systemctl show -p NRestarts --value climated.service)\" = 1 ] &&
		timeout 10 nsenter -t $leader -a journalctl -b --no-pager -u climated.service | grep -q 'Watchdog timeout'"
cx rm -rf /run/systemd/system/climated.service.d
cx systemctl daemon-reload

check "stops cleanly (status 0)" sh -c "timeout 40 nsenter -t $leader -a systemctl stop climated.service" 
check "stop result" test "$(show Result) $(show ExecMainStatus)" = "success 0"
cx systemctl start climated.service
before=$(show MainPID)
check "upgrade" sh -c "timeout 120 nsenter -t $leader -a env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin dpkg -i /opt/climated_2.deb >$work/dpkg.out 2>&1" ||
	cat "$work/dpkg.out"
check "the upgrade restarted it" sh -c "[ '$(show ActiveState)' = active ] && [ '$(show MainPID)' != '$before' ]"
check "dpkg -r" sh -c "timeout 120 nsenter -t $leader -a env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin dpkg -r climated >$work/dpkg.out 2>&1" ||
	cat "$work/dpkg.out"
check "remove stopped and masked it" test "$(show ActiveState) $(show LoadState)" = "inactive masked"
check "dpkg -P" sh -c "timeout 120 nsenter -t $leader -a env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin dpkg -P climated >$work/dpkg.out 2>&1" ||
	cat "$work/dpkg.out"
check "purge: no unit, no user, no data" \
	sh -c "[ '$(show LoadState)' = not-found ] && ! timeout 10 nsenter -t $leader -a sh -c 'getent passwd climated || ls -d /var/lib/climated /etc/climated' >/dev/null 2>&1"

echo "systemd: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
