#!/bin/sh
# `make chromium`: the browser tests drive Debian's Chromium; install it when it is missing.
#
# apt allows one user at a time: while another apt-get (or unattended-upgrades) holds its
# lock, this waits and tries again (up to DOUBLESIX_APT_TRIES times, DOUBLESIX_APT_WAIT
# seconds apart) instead of failing with "Could not get lock"; in the end it says what to do.
set -u
browser="${DOUBLESIX_CHROMIUM:-/usr/bin/chromium}"
[ -x "$browser" ] && exit 0
tries="${DOUBLESIX_APT_TRIES:-20}"
wait="${DOUBLESIX_APT_WAIT:-30}"
advice="Install it yourself when apt is free (as root: apt-get install chromium), or point
DOUBLESIX_CHROMIUM at a Chromium binary; then run 'make test' again."
if [ "$(id -u)" != 0 ] && ! command -v sudo >/dev/null 2>&1; then
    echo "No Chromium at $browser, and installing it needs root. $advice" >&2
    exit 1
fi
as_root=""
[ "$(id -u)" != 0 ] && as_root="sudo"
echo "No Chromium at $browser: installing Debian's (apt-get install chromium)."
n=1
while [ "$n" -le "$tries" ]; do
    # DPkg::Lock::Timeout makes apt itself wait a while for dpkg's lock.
    if $as_root apt-get -o DPkg::Lock::Timeout=60 update -q &&
        $as_root apt-get -o DPkg::Lock::Timeout=60 install -y -q chromium; then
        [ -x "$browser" ] && exit 0
        echo "apt-get installed chromium, but there is still nothing at $browser. $advice" >&2
        exit 1
    fi
    echo "apt-get failed (try $n of $tries; apt may be busy with another install): waiting ${wait} s." >&2
    sleep "$wait"
    n=$((n + 1))
done
echo "Chromium could not be installed after $tries tries. $advice" >&2
exit 1
