#!/usr/bin/env bash
# Tests the Debian packages (scripts/deb.sh):
#   1. contents: every file, its owner and mode; control fields; conffiles;
#      maintainer scripts; the architecture the binary was built for;
#   2. lintian (installed with apt-get where missing): no error or warning
#      beyond the overrides in scripts/deb/lintian-overrides;
#   3. the unit: systemd-analyze verify, and security --offline=true below
#      2.0;
#   4. the maintainer scripts, for real, on a throwaway copy of this
#      machine: an overlay of / with a tmpfs on top, in a mount namespace of
#      its own, chrooted into. dpkg -i, an upgrade over a changed
#      configuration, remove, reinstall and purge run there with their real
#      tools (systemd-sysusers, systemd-tmpfiles, deb-systemd-helper,
#      userdel); systemctl, deb-systemd-invoke and udevadm are stand-ins that
#      record their calls, first without and then with /run/systemd/system
#      (systemd as the running init). Nothing reaches the real machine:
#      its /etc/passwd and /etc/group are compared before and after;
#   5. under systemd itself: a container booted with systemd-nspawn
#      (installed with apt-get where missing) from another such overlay,
#      private network: Type=notify, the user, no capabilities, the
#      system-call filter, the watchdog restarting a stuck hub, a clean
#      stop, upgrade, remove and purge (scripts/deb/boot-test.sh);
#   6. DPKG_ROOT: install and purge into an empty root with dpkg --root
#      --force-script-chrootless, as an image builder does;
#   7. the armhf preinst refuses an ARMv6 CPU.
#
# Usage: scripts/deb-test.sh [DIST_DIR]
#   Without DIST_DIR, builds the packages into a temporary directory.
case "${1:-}" in -h | --help) sed -n '2,/^[^#]/s/^# \{0,1\}//p' "$0"; exit 0 ;; esac # the header above is the usage
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v lintian >/dev/null; then
	echo "deb-test: installing lintian"
	apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq lintian >/dev/null
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0
failed=0
ok() { passed=$((passed + 1)); }
bad() { failed=$((failed + 1)); echo "deb-test: FAILED: $*"; }
check() { # check DESCRIPTION COMMAND...
	local what=$1
	shift
	if "$@"; then ok; else bad "$what"; fi
}

if [ $# -gt 0 ]; then
	dist=$1
else
	dist=$tmp/dist
	DIST=$dist scripts/deb.sh >/dev/null
fi
declare -A deb
for a in arm64 armhf amd64; do
	deb[$a]=$(ls "$dist"/climated_*_"$a".deb 2>/dev/null | head -1)
	[ -n "${deb[$a]}" ] || { echo "deb-test: no $a package in $dist"; exit 1; }
done
version=$(dpkg-deb -f "${deb[amd64]}" Version)

# 1. Contents.
for a in arm64 armhf amd64; do
	d=${deb[$a]}
	echo "== $(basename "$d")"
	dpkg-deb -I "$d" | sed -n 's/^ \( *[0-9]* bytes,.*\|Version:.*\|Architecture:.*\|Installed-Size:.*\|Depends:.*\)/   \1/p'
	dpkg-deb -c "$d" | awk '$1 !~ /^d/ { printf "   %s %s %9s %s\n", $1, $2, $3, $6 }'
	expected="-rw-r--r-- root/root ./etc/climated/climated.yaml
-rw-r--r-- root/root ./lib/systemd/system/climated.service
-rw-r--r-- root/root ./usr/lib/sysusers.d/climated.conf
-rw-r--r-- root/root ./usr/lib/tmpfiles.d/climated.conf
-rw-r--r-- root/root ./usr/share/doc/climated/changelog.gz
-rw-r--r-- root/root ./usr/share/doc/climated/copyright
-rw-r--r-- root/root ./usr/share/doc/climated/dependencies.txt.gz
-rw-r--r-- root/root ./usr/share/lintian/overrides/climated
-rw-r--r-- root/root ./usr/share/man/man1/climated.1.gz
-rwxr-xr-x root/root ./usr/bin/climated"
	[ "$a" = amd64 ] || expected="$expected
-rw-r--r-- root/root ./lib/udev/rules.d/60-climated.rules"
	check "$a: the files, their owners and modes" \
		diff <(echo "$expected" | sort) <(dpkg-deb -c "$d" | awk '$1 !~ /^d/ { print $1, $2, $6 }' | sort)
	check "$a: every directory root/root 0755" \
		test -z "$(dpkg-deb -c "$d" | awk '$1 ~ /^d/ && ($1 != "drwxr-xr-x" || $2 != "root/root")')"
	check "$a: Package, Version, Architecture, Depends" \
		test "$(dpkg-deb -f "$d" Package Version Architecture Depends)" = "Package: climated
Version: $version
Architecture: $a
Depends: systemd"
	ctl=$tmp/control-$a
	dpkg-deb -e "$d" "$ctl"
	check "$a: conffiles" test "$(cat "$ctl/conffiles")" = /etc/climated/climated.yaml
	scripts="postinst postrm prerm"
	[ "$a" = armhf ] && scripts="postinst postrm preinst prerm"
	check "$a: maintainer scripts $scripts" \
		test "$(find "$ctl" -type f -perm 0755 -printf '%f\n' | sort | xargs)" = "$scripts"
	for s in $scripts; do
		check "$a: $s is valid sh" sh -n "$ctl/$s"
	done
	x=$tmp/x-$a
	mkdir -p "$x"
	dpkg-deb -x "$d" "$x"
	check "$a: md5sums" sh -c "cd '$x' && md5sum --quiet -c '$ctl/md5sums'"
	want="GOARCH=$a"
	[ "$a" = armhf ] && want="GOARCH=arm GOARM=7"
	check "$a: binary built with CGO_ENABLED=0 $want" \
		test "$(go version -m "$x/usr/bin/climated" | grep -Eo '(CGO_ENABLED|GOARCH|GOARM)=[^ ]*' | sort | xargs)" = \
		"$(echo CGO_ENABLED=0 $want | xargs -n1 | sort | xargs)"
done
check "amd64: the binary runs and is stamped" \
	sh -c "'$tmp/x-amd64/usr/bin/climated' version | grep -q '^climated [^ ]* commit [0-9a-f]* built '"
# The shipped configuration passes `climated config check`; where the
# binary lacks that command, loading it must get as far as the (invalid)
# listen address given on the command line.
conf=$tmp/x-amd64/etc/climated/climated.yaml
if out=$("$tmp/x-amd64/usr/bin/climated" config check "$conf" 2>&1) || ! grep -q 'unknown command "config"' <<<"$out"; then
	check "the configuration shipped passes climated config check" sh -c "'$tmp/x-amd64/usr/bin/climated' config check '$conf' >/dev/null"
else
	check "the configuration shipped loads" \
		sh -c "'$tmp/x-amd64/usr/bin/climated' serve --config '$conf' --listen 127.0.0.1:x 2>&1 | grep -q 'listen \"127.0.0.1:x\"'"
fi

# 2. lintian.
# (TMPDIR: lintian leaves files of its own behind in it.)
mkdir -p "$tmp/lintian-tmp"
TMPDIR=$tmp/lintian-tmp lintian --pedantic -I "${deb[@]}" >"$tmp/lintian" 2>&1 || true
grep -v '^running with root privileges' "$tmp/lintian" | sed 's/^/   /' || true
if grep -q '^[EW]: ' "$tmp/lintian"; then
	bad "lintian reports errors or warnings"
else
	ok
	echo "lintian: no errors or warnings ($(grep -c '^[IP]: ' "$tmp/lintian" || true) info/pedantic notes)"
fi

# 3. The unit, with ExecStart pointed at the extracted binary (the verify
# checks that the command exists).
sed "s#/usr/bin/climated#$tmp/x-amd64/usr/bin/climated#" "$tmp/x-amd64/lib/systemd/system/climated.service" >"$tmp/climated.service"
if out=$(systemd-analyze verify "$tmp/climated.service" 2>&1) && [ -z "$out" ]; then
	ok
	echo "systemd-analyze verify climated.service: ok"
else
	echo "$out"
	bad "systemd-analyze verify climated.service"
fi
score=$(systemd-analyze security --offline=true "$tmp/climated.service" 2>&1 | sed -n 's/.*Overall exposure level for climated.service: \([0-9.]*\).*/\1/p')
echo "systemd-analyze security --offline=true: exposure ${score:-?} (want below 2.0)"
check "exposure below 2.0" awk -v s="${score:-99}" 'BEGIN { exit !(s < 2.0) }'

# 4. The maintainer scripts on a copy-on-write copy of this machine.
md5sum /etc/passwd /etc/group >"$tmp/host-ids"
cp "${deb[amd64]}" "$tmp/climated_1.deb"
# Version 2 changes the default configuration, so that dpkg has a conffile
# to reconcile with the administrator's change.
dpkg-deb -R "${deb[amd64]}" "$tmp/v2"
sed -i "s/^Version: .*/Version: $version+upgrade/" "$tmp/v2/DEBIAN/control"
echo "# version 2 of the default" >>"$tmp/v2/etc/climated/climated.yaml"
dpkg-deb --root-owner-group -Zxz --build "$tmp/v2" "$tmp/climated_2.deb" >/dev/null
cp scripts/deb/lifecycle.sh "$tmp/lifecycle.sh"

cat >"$tmp/overlay.sh" <<'EOF'
set -eu
t=$1
mount -t tmpfs tmpfs "$t/ov"
mkdir "$t/ov/upper" "$t/ov/work" "$t/ov/root"
mount -t overlay overlay -o "lowerdir=/,upperdir=$t/ov/upper,workdir=$t/ov/work" "$t/ov/root"
r=$t/ov/root
mount -t proc proc "$r/proc"
mount --rbind /dev "$r/dev"
mount -t tmpfs tmpfs "$r/run"
mount -t tmpfs tmpfs "$r/tmp"
cp "$t/climated_1.deb" "$t/climated_2.deb" "$t/lifecycle.sh" "$r/tmp/"
chroot "$r" /usr/bin/env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
	bash /tmp/lifecycle.sh /tmp/climated_1.deb /tmp/climated_2.deb
EOF
mkdir "$tmp/ov"
echo "== maintainer scripts: dpkg in a throwaway overlay of this machine"
if unshare --mount --propagation private bash "$tmp/overlay.sh" "$tmp" >"$tmp/lifecycle.out" 2>&1; then
	ok
else
	bad "maintainer scripts (lifecycle)"
fi
sed 's/^/   /' "$tmp/lifecycle.out"
check "the machine's own /etc/passwd and /etc/group untouched" md5sum --quiet -c "$tmp/host-ids"

# 5. Under systemd itself: a container booted from another overlay of
# this machine (scripts/deb/boot-test.sh).
if ! command -v systemd-nspawn >/dev/null; then
	echo "deb-test: installing systemd-container (systemd-nspawn)"
	apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq systemd-container >/dev/null
fi
echo "== the package under systemd: a container booted with systemd-nspawn"
mkdir "$tmp/boot"
status=0
unshare --mount --propagation private bash scripts/deb/boot-test.sh "$tmp/boot" "$tmp/climated_1.deb" "$tmp/climated_2.deb" \
	>"$tmp/boot.out" 2>&1 || status=$?
sed 's/^/   /' "$tmp/boot.out"
case $status in
0) ok ;;
77) echo "deb-test: SKIPPED: the package under systemd (no container could be booted here)" ;;
*) bad "the package under systemd" ;;
esac
check "the machine's own /etc/passwd and /etc/group untouched" md5sum --quiet -c "$tmp/host-ids"

# 6. DPKG_ROOT: an empty root, scripts run outside it.
r=$tmp/dpkgroot
mkdir -p "$r/var/lib/dpkg/info" "$r/var/lib/dpkg/updates" "$r/var/lib/dpkg/triggers" "$r/etc"
cp /etc/login.defs "$r/etc/"
# The root has no systemd package; this stands in for it (Depends: systemd).
printf 'Package: systemd\nStatus: install ok installed\nVersion: 252\nArchitecture: amd64\nMaintainer: none <none@invalid>\nDescription: stand-in\n\n' >"$r/var/lib/dpkg/status"
echo "== DPKG_ROOT: dpkg --root --force-script-chrootless"
if dpkg --root="$r" --force-script-chrootless --log=/dev/null -i "${deb[amd64]}" >"$tmp/root.out" 2>&1; then
	ok
	uid=$(awk -F: '$1 == "climated" { print $3 }' "$r/etc/passwd")
	check "DPKG_ROOT: user climated in the root's /etc/passwd" test -n "$uid"
	check "DPKG_ROOT: climated in i2c and gpio" \
		test "$(awk -F: '$4 ~ /(^|,)climated(,|$)/ { print $1 }' "$r/etc/group" | sort | xargs)" = "gpio i2c"
	check "DPKG_ROOT: /var/lib/climated $uid:$uid 750" test "$(stat -c '%u:%g %a' "$r/var/lib/climated")" = "$uid:$uid 750"
	check "DPKG_ROOT: /etc/climated 0:$uid 750" test "$(stat -c '%u:%g %a' "$r/etc/climated")" = "0:$uid 750"
	check "DPKG_ROOT: climated.yaml 0:$uid 640" test "$(stat -c '%u:%g %a' "$r/etc/climated/climated.yaml")" = "0:$uid 640"
	check "DPKG_ROOT: enabled" test "$(readlink "$r/etc/systemd/system/multi-user.target.wants/climated.service")" = /lib/systemd/system/climated.service
	if dpkg --root="$r" --force-script-chrootless --log=/dev/null -P climated >>"$tmp/root.out" 2>&1; then
		ok
		check "DPKG_ROOT: purge removes the user, the group, /etc/climated, /var/lib/climated, the links" \
			test -z "$(grep '^climated:' "$r/etc/passwd" "$r/etc/group"; ls -d "$r/etc/climated" "$r/var/lib/climated" "$r/etc/systemd/system/multi-user.target.wants/climated.service" 2>/dev/null)"
		echo "DPKG_ROOT: install and purge ok"
	else
		cat "$tmp/root.out"
		bad "DPKG_ROOT: purge"
	fi
else
	cat "$tmp/root.out"
	bad "DPKG_ROOT: install"
fi
check "the machine's own /etc/passwd and /etc/group untouched" md5sum --quiet -c "$tmp/host-ids"

# 7. The armhf preinst on a Pi Zero (uname -m says armv6l) and a Pi 2.
mkdir -p "$tmp/shim"
for m in armv6l armv7l; do
	printf '#!/bin/sh\necho %s\n' "$m" >"$tmp/shim/uname"
	chmod +x "$tmp/shim/uname"
	status=0
	PATH=$tmp/shim:$PATH sh "$tmp/control-armhf/preinst" install >"$tmp/preinst.out" 2>&1 || status=$?
	if [ $m = armv6l ]; then
		check "armhf preinst refuses ARMv6" sh -c "[ $status -ne 0 ] && grep -q 'ARMv6' '$tmp/preinst.out'"
	else
		check "armhf preinst accepts ARMv7" test $status -eq 0
	fi
done

echo "deb-test: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
