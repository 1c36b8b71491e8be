# tests/debian_root.sh: a clean Debian 12 root for the tests that need one
# (tests/fresh_machine.sh, tests/deb_test.sh); sourced, not run.
#
# A script that uses it sets DROOT_NAME (its name, for messages) and:
#   outside, as root:  droot_start SELF COMMIT KEEP [ARGS...]
#       checks root and debootstrap (exit 77 when no root can be made), picks
#       the mirror and where the root lives, makes the work directory (removed
#       on exit), puts `git archive COMMIT` of $SRC in it as source.tar, runs
#       the hook droot_before_inside (if defined: copy more into $work), then
#       runs `sh SELF --inside WORK ARGS...` in new mount and pid namespaces
#       and exits with its status;
#   inside (SELF --inside WORK ...):  droot_enter WORK
#       unpacks the bootstrapped root (cached as a tarball under
#       ${XDG_CACHE_HOME:-$HOME/.cache}/cudalint/, rebuilt after 30 days) on a
#       tmpfs or on disk, gives it the host's apt sources, keys, proxies and
#       CA certificates, unpacks the source at /src/cudalint ($tree here) and
#       mounts /proc, /sys and a minimal /dev; then
#       in_root LOG COMMAND runs COMMAND in /src/cudalint as root with a fresh
#       login's environment, prints its output and leaves its exit code in
#       $rc, its wall time in $secs and its log file in $log; fail MESSAGE
#       counts a failure in $failures.
# The mounts are private to the namespace, so they vanish with the script
# whatever happens.
# Environment: CUDALINT_FRESH_MIRROR (bootstrap mirror; default: the host's
# bookworm source), CUDALINT_FRESH_TMPFS (the root's tmpfs size, such as 5G,
# or 0 for a root on disk; default: 5G when at least 10 GiB of memory are
# available, else disk: deleting the ~65,000 files of a used root took 4m51s
# on a 2-core test machine's sandboxed file system; a tmpfs goes at once).

SUITE=bookworm
PATH_IN_ROOT=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
SRC=${CUDALINT_SOURCE_DIR:-$(cd "$(dirname "$0")/.." && pwd)}

say() { echo "${DROOT_NAME:-debian_root}: $*"; }

# Mount points at or under $1, deepest first (mountinfo field 5).
mounts_under() {
    awk -v d="$1" '$5 == d || index($5, d "/") == 1 { print $5 }' /proc/self/mountinfo | sort -r
}

# ---------------------------------------------------------------------------
# Inside: everything that mounts runs here, in the private mount namespace.
# ---------------------------------------------------------------------------
fail() { say "FAIL: $*"; failures=$((failures + 1)); }

undo_mounts() {
    for m in $(mounts_under "$work"); do
        umount "$m" 2>/dev/null || umount -l "$m"
    done
}

droot_enter() {
    work=$1
    root=$work/root
    failures=0
    trap 'undo_mounts' EXIT
    trap 'exit 130' INT
    trap 'exit 143' TERM
    trap 'exit 129' HUP

    # --- the bootstrapped root, from the cache or made now ---
    arch=$(dpkg --print-architecture)
    cache=${XDG_CACHE_HOME:-${HOME:-/root}/.cache}/cudalint
    tarball=$cache/$SUITE-minbase-$arch.tar.gz
    if [ -f "$tarball" ] && [ -z "$(find "$tarball" -mtime +30)" ]; then
        say "root from the cached $tarball"
    else
        mirror=$FRESH_MIRROR
        say "bootstrapping $SUITE ($arch, minbase) from $mirror"
        mkdir -p "$cache" "$work/boot"
        if ! debootstrap --variant=minbase --arch="$arch" "$SUITE" "$work/boot" "$mirror" >"$work/debootstrap.log" 2>&1; then
            tail -n 30 "$work/debootstrap.log"
            say "FAIL: debootstrap failed (log above)"
            exit 1
        fi
        undo_mounts
        # Device nodes are recreated on a tmpfs at every run; downloaded
        # packages and package lists are not worth caching.
        if ! tar -C "$work/boot" --numeric-owner --exclude='./dev/*' \
                 --exclude='./var/cache/apt/archives/*.deb' --exclude='./var/lib/apt/lists/*' \
                 -czf "$tarball.$$" . || ! mv "$tarball.$$" "$tarball"; then
            rm -f "$tarball.$$"
            say "FAIL: cannot write $tarball"
            exit 1
        fi
        rm -rf --one-file-system "${work:?}/boot"
        say "cached the root as $tarball ($(du -h "$tarball" | cut -f1))"
    fi
    mkdir -p "$root"
    # A root in memory: where deleting the ~65,000 files of a used root is slow
    # (minutes on some sandboxed file systems), unmounting is instant.
    if [ "$FRESH_TMPFS" != 0 ]; then
        mount -t tmpfs -o "size=$FRESH_TMPFS,mode=755" tmpfs "$root" ||
            { say "FAIL: cannot mount a tmpfs of $FRESH_TMPFS"; exit 1; }
        say "the root is on a tmpfs of $FRESH_TMPFS (CUDALINT_FRESH_TMPFS=0: on disk)"
    fi
    tar -C "$root" --numeric-owner -xpzf "$tarball" || { say "FAIL: cannot unpack $tarball"; exit 1; }

    # --- the host's package sources, their keys and network settings ---
    rm -f "$root/etc/apt/sources.list"
    for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources \
             /etc/apt/trusted.gpg /etc/apt/auth.conf; do
        [ -f "$f" ] && cp -pL "$f" "$root$f"
    done
    for d in /etc/apt/trusted.gpg.d /etc/apt/keyrings /etc/apt/auth.conf.d /usr/local/share/ca-certificates; do
        [ -d "$d" ] && mkdir -p "$root$d" && cp -pLR "$d/." "$root$d/"
    done
    # Keys named by Signed-By (a path; an inline key needs nothing).
    for k in $(cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources 2>/dev/null |
               grep -oE '(signed-by=|Signed-By:[[:space:]]*)/[^] ,]+' | sed -E 's/^(signed-by=|Signed-By:[[:space:]]*)//' | sort -u); do
        [ -f "$k" ] && [ ! -e "$root$k" ] && mkdir -p "$root$(dirname "$k")" && cp -pL "$k" "$root$k"
    done
    # apt options that decide how the network is reached (proxies, CA files,
    # index validity); the host's other apt settings concern its own packages.
    for f in /etc/apt/apt.conf /etc/apt/apt.conf.d/*; do
        [ -f "$f" ] && grep -v '^[[:space:]]*//' "$f" | grep -q 'Acquire' && cp -pL "$f" "$root$f"
    done
    mkdir -p "$root/etc/ssl/certs"
    [ -f /etc/ssl/certs/ca-certificates.crt ] && cp -pL /etc/ssl/certs/ca-certificates.crt "$root/etc/ssl/certs/"
    cp -L /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null
    cp -L /etc/hosts "$root/etc/hosts" 2>/dev/null
    # No daemon is started by a package installed here.
    printf '#!/bin/sh\nexit 101\n' >"$root/usr/sbin/policy-rc.d" && chmod 755 "$root/usr/sbin/policy-rc.d"

    # --- the tree under test ---
    mkdir -p "$root/src"
    tar -C "$root/src" -xf "$work/source.tar" || { say "FAIL: cannot unpack the source"; exit 1; }
    tree=$root/src/cudalint

    # --- /proc, /sys and a minimal /dev for the chroot ---
    mount -t proc proc "$root/proc"
    mount -t sysfs -o ro sysfs "$root/sys" 2>/dev/null || true
    mount -t tmpfs -o mode=755,nosuid tmpfs "$root/dev"
    for n in null zero full random urandom tty; do
        : >"$root/dev/$n"
        mount --bind "/dev/$n" "$root/dev/$n"
    done
    ln -s /proc/self/fd "$root/dev/fd"
    ln -s /proc/self/fd/0 "$root/dev/stdin"
    ln -s /proc/self/fd/1 "$root/dev/stdout"
    ln -s /proc/self/fd/2 "$root/dev/stderr"
    mkdir "$root/dev/pts" "$root/dev/shm"
    mount -t devpts -o newinstance,ptmxmode=0666,mode=620 devpts "$root/dev/pts" 2>/dev/null &&
        ln -s pts/ptmx "$root/dev/ptmx"
    mount -t tmpfs -o mode=1777,nosuid,nodev tmpfs "$root/dev/shm"
}

# in_root LOG COMMAND: runs COMMAND in the tree, as root, with the
# environment of a fresh login (and the host's proxy variables); prints
# its output and leaves its exit code in $rc and its wall time in $secs.
in_root() {
    log=$work/$1
    shift
    t0=$(date +%s)
    {
        chroot "$root" /usr/bin/env -i HOME=/root PATH="$PATH_IN_ROOT" TERM=dumb \
            ${http_proxy:+http_proxy=$http_proxy} ${https_proxy:+https_proxy=$https_proxy} \
            ${no_proxy:+no_proxy=$no_proxy} ${HTTP_PROXY:+HTTP_PROXY=$HTTP_PROXY} \
            ${HTTPS_PROXY:+HTTPS_PROXY=$HTTPS_PROXY} ${NO_PROXY:+NO_PROXY=$NO_PROXY} \
            /bin/sh -c "cd /src/cudalint && $*" </dev/null
        echo $? >"$log.rc"
    } 2>&1 | tee "$log"
    rc=$(cat "$log.rc")
    secs=$(($(date +%s) - t0))
}

# ---------------------------------------------------------------------------
# Outside: checks, the work directory and its removal.
# ---------------------------------------------------------------------------

# The bookworm source among the host's apt sources (one-line or deb822 form).
host_mirror() {
    for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
        [ -f "$f" ] && awk -v s="$SUITE" '$1 == "deb" {
            i = 2; if ($i ~ /^\[/) { while ($i !~ /\]$/) i++; i++ }
            if ($(i + 1) == s) { print $i; exit } }' "$f"
    done
    for f in /etc/apt/sources.list.d/*.sources; do
        [ -f "$f" ] && awk -v s="$SUITE" 'BEGIN { RS = "" } {
            types = suites = uris = ""; enabled = 1
            n = split($0, line, "\n")
            for (j = 1; j <= n; j++) {
                if (line[j] ~ /^#/) continue
                if (line[j] ~ /^Types:/) types = line[j]
                if (line[j] ~ /^Suites:/) suites = line[j] " "
                if (line[j] ~ /^URIs:/) { split(line[j], u, /[[:space:]]+/); uris = u[2] }
                if (line[j] ~ /^Enabled:[[:space:]]*no/) enabled = 0
            }
            if (enabled && types ~ /[[:space:]]deb([[:space:]]|$)/ && index(suites, " " s " ") && uris != "") { print uris; exit }
        }' "$f"
    done
}

# shellcheck disable=SC2317  # called by the EXIT trap
droot_cleanup() {
    status=$?
    trap - EXIT INT TERM HUP
    # Without a private namespace the mounts were made here: undo what is left.
    for m in $(mounts_under "$work"); do
        umount "$m" 2>/dev/null || umount -l "$m" 2>/dev/null
    done
    if [ -n "$(mounts_under "$work")" ]; then
        say "FAIL: still mounted under $work, not removing it: $(mounts_under "$work" | tr '\n' ' ')"
        status=1
    elif [ "$droot_keep" = 1 ]; then
        say "kept $work/root"
    else
        # A second try: processes of a killed namespace may still be exiting.
        rm -rf --one-file-system "${work:?}" 2>/dev/null ||
            { sleep 2; rm -rf --one-file-system "${work:?}"; }
    fi
    exit "$status"
}

droot_start() {
    droot_self=$1
    droot_rev=$2
    droot_keep=$3
    shift 3
    if [ "$(id -u)" != 0 ]; then
        say "SKIP: needs root (chroot, mounts) to build a Debian root"
        exit 77
    fi
    if ! command -v debootstrap >/dev/null 2>&1; then
        if command -v apt-get >/dev/null 2>&1; then
            say "installing debootstrap"
            DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends debootstrap >/dev/null 2>&1 ||
                { apt-get update -qq >/dev/null 2>&1 &&
                  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends debootstrap >/dev/null 2>&1; }
        fi
        if ! command -v debootstrap >/dev/null 2>&1; then
            say "SKIP: no debootstrap, and it could not be installed (apt-get install debootstrap)"
            exit 77
        fi
    fi
    if ! commit=$(git -C "$SRC" rev-parse --verify -q "$droot_rev^{commit}"); then
        say "FAIL: $droot_rev is not a commit of the git checkout $SRC"
        exit 1
    fi
    FRESH_MIRROR=${CUDALINT_FRESH_MIRROR:-$(host_mirror | head -n 1)}
    FRESH_MIRROR=${FRESH_MIRROR:-http://deb.debian.org/debian}
    # Where the root lives: in memory when there is room, so removing it is instant.
    FRESH_TMPFS=${CUDALINT_FRESH_TMPFS:-}
    if [ "$droot_keep" = 1 ]; then
        FRESH_TMPFS=0
    elif [ -z "$FRESH_TMPFS" ]; then
        avail_kb=$(awk '/^MemAvailable:/ { print $2 }' /proc/meminfo 2>/dev/null)
        if [ "${avail_kb:-0}" -ge $((10 * 1024 * 1024)) ]; then FRESH_TMPFS=5G; else FRESH_TMPFS=0; fi
    fi
    export FRESH_MIRROR FRESH_TMPFS

    base=${TMPDIR:-/var/tmp}
    # Roots left by runs that were killed (their pid is gone, nothing is mounted).
    for d in "$base"/cudalint-fresh.*; do
        [ -f "$d/pid" ] || continue
        kill -0 "$(cat "$d/pid")" 2>/dev/null && continue
        [ -z "$(mounts_under "$d")" ] && rm -rf --one-file-system "$d"
    done
    work=$(mktemp -d "$base/cudalint-fresh.XXXXXX") || { say "FAIL: cannot create a directory in $base"; exit 1; }
    echo $$ >"$work/pid"
    trap droot_cleanup EXIT
    trap 'exit 130' INT
    trap 'exit 143' TERM
    trap 'exit 129' HUP

    start=$(date +%s)
    say "testing commit $commit (git archive: uncommitted changes are not part of it)"
    git -C "$SRC" archive --format=tar --prefix=cudalint/ "$commit" >"$work/source.tar" ||
        { say "FAIL: git archive $commit"; exit 1; }
    if command -v droot_before_inside >/dev/null 2>&1; then
        droot_before_inside || { say "FAIL: preparing $work"; exit 1; }
    fi

    # In new mount and pid namespaces: the mounts are private, and killing the
    # namespace's first process (what --kill-child does when this script is
    # interrupted) ends every process in it and releases every mount at once.
    if unshare --mount --pid --fork true 2>/dev/null; then
        unshare --mount --pid --fork --kill-child=KILL --propagation private sh "$droot_self" --inside "$work" "$@" &
        stop=KILL
    else
        say "no private mount and pid namespaces here: mounting in this one (undone on exit)"
        sh "$droot_self" --inside "$work" "$@" &
        stop=TERM
    fi
    child=$!
    # A trapped signal interrupts `wait`, where it would wait for a foreground child.
    trap 'kill -$stop $child 2>/dev/null; wait $child; exit 130' INT
    trap 'kill -$stop $child 2>/dev/null; wait $child; exit 143' TERM
    trap 'kill -$stop $child 2>/dev/null; wait $child; exit 129' HUP
    wait "$child"
    status=$?
    say "wall time $(($(date +%s) - start))s"
    if [ "$status" = 0 ]; then say "PASS"; else say "FAILED"; fi
    exit "$status"
}
