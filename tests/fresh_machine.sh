#!/bin/sh
# tests/fresh_machine.sh: proves the README's quick start on a clean Debian 12.
# Builds a minimal bookworm root (debootstrap --variant=minbase) that has the
# host's apt sources and CA certificates and nothing else, copies a clean
# `git archive` of the commit under test into it and, as root in a chroot:
#   1. runs the README's first command (read from the README, so the two cannot
#      drift apart): exit code 1 and findings for every fixture with expectations,
#      in declarations mode (no CUDA Toolkit);
#   2. checks that configuring the tests there fails with one line naming the
#      missing test packages, not a CMake backtrace;
#   3. runs the first command again with the host's CUDA Toolkit mounted
#      read-only at /usr/local/cuda (when the host has one): toolkit mode;
#   4. runs `.ci/setup --tests` (its packages, configure + build of the tests;
#      not the whole suite a second time) and checks that ctest lists the tests;
#   5. runs the first command once more over that build/ (tests on before).
#
# usage: tests/fresh_machine.sh [--commit REV] [--keep]
#   --commit REV   test REV's tree instead of HEAD's (also $CUDALINT_FRESH_COMMIT)
#   --keep         leave the root in place for inspection (mounts are undone;
#                  implies CUDALINT_FRESH_TMPFS=0)
# Environment: CUDALINT_FRESH_MIRROR (bootstrap mirror; default: the host's
# bookworm source), CUDALINT_FRESH_TOOLKIT (a toolkit directory, or "none"),
# CUDALINT_FRESH_TMPFS (the root's tmpfs size, such as 5G, or 0 for a root on
# disk; default: 5G when at least 10 GiB of memory are available, else disk.
# The used root holds ~2.8 GB in ~65,000 files: on disk, deleting them took
# 4m51s on a 2-core test machine's sandboxed file system; a tmpfs goes at once).
# The root itself (bootstrapped once and cached, the host's apt sources, the
# source tree, the mounts) comes from tests/debian_root.sh, which
# tests/deb_test.sh shares.  Mounts are made in private mount and pid
# namespaces where the kernel allows them, so they vanish with the script
# whatever happens; the root is removed on any exit, and a root left by a
# killed run is removed by the next run.
# Exit 77 (skipped) only when no root can be made: not root, or no debootstrap
# and no way to install it.
set -u

self=$(cd "$(dirname "$0")" && pwd)/$(basename "$0")
DROOT_NAME=fresh_machine
. "$(dirname "$self")/debian_root.sh"

# ---------------------------------------------------------------------------
# Inside: everything that mounts runs here, in the private mount namespace.
# ---------------------------------------------------------------------------
if [ "${1:-}" = "--inside" ]; then
    droot_enter "$2"

    (cd "$tree" && find fixtures -name '*.cu' -o -name '*.cuh' | sort | xargs grep -lE 'expect(@[+-][0-9]+)?:' | sort) >"$work/expected"
    nexpected=$(wc -l <"$work/expected")
    if [ "$nexpected" -eq 0 ]; then
        say "FAIL: no fixture with expectations in the tree under test"
        exit 1
    fi
    # The README's first command: the first line of the quick start's code block.
    first=$(awk '/^## Quick start/ { q = 1; next } q && /^## / { exit }
                 q && /^```/ { if (inblock) exit; inblock = 1; next }
                 inblock && NF { sub(/[[:space:]]+#.*$/, ""); print; exit }' "$tree/README.md")
    if [ -z "$first" ]; then
        say "FAIL: no command in the README's quick start"
        exit 1
    fi
    say "the README's first command: $first"

    # check_first STAGE: the first command's exit code and findings.
    check_first() {
        [ "$rc" = 1 ] || fail "$1: the first command exited $rc, not 1"
        sed -nE 's/^([^: ]+):[0-9]+:[0-9]+: (error|warning|note): .*\[CU[0-9]{3} .*/\1/p' "$log" | sort -u >"$log.files"
        missing=$(comm -23 "$work/expected" "$log.files" | tr '\n' ' ')
        [ -z "$missing" ] || fail "$1: no findings printed for: $missing"
        say "$1: exit $rc, findings in $(wc -l <"$log.files") files ($nexpected fixtures expected), ${secs}s"
    }

    # check_mode STAGE EXPECTED: which headers cudalint parses with.
    check_mode() {
        in_root "$1.mode" "build/cudalint --dump-config fixtures/ | grep 'toolkit in use'" >/dev/null
        grep -q "toolkit in use: $2" "$log" || fail "$1: expected 'toolkit in use: $2', got: $(cat "$log")"
    }

    say "== 1. the first command, no CUDA Toolkit"
    in_root first.log "$first"
    check_first "no toolkit"
    check_mode "no toolkit" "none found"

    say "== 2. configuring the tests without their packages"
    in_root probe.log "cmake -S . -B /tmp/tests-probe -DCUDALINT_TESTS=ON >/dev/null"
    if [ "$rc" = 0 ]; then
        fail "test configuration succeeded without the test packages"
    elif grep -q 'Call Stack' "$log" || ! grep -q 'libcmocka-dev' "$log"; then
        fail "a missing test package is not one line naming it (output above)"
    else
        say "refused with: $(grep 'libcmocka-dev' "$log" | sed 's/^ *//')"
    fi

    toolkit=$FRESH_TOOLKIT
    if [ -n "$toolkit" ]; then
        say "== 3. the first command again, with the toolkit $toolkit"
        mkdir -p "$root/usr/local/cuda"
        mount -o bind,ro "$toolkit" "$root/usr/local/cuda"
        in_root toolkit.log "$first"
        check_first "toolkit"
        check_mode "toolkit" "/usr/local/cuda"
        umount "$root/usr/local/cuda"
    else
        say "== 3. no CUDA Toolkit on this host: toolkit mode not checked"
    fi

    say "== 4. .ci/setup --tests"
    in_root tests.log ".ci/setup --tests"
    [ "$rc" = 0 ] || fail ".ci/setup --tests exited $rc"
    setup_secs=$secs
    in_root list.log "ctest --test-dir build -N" >/dev/null
    ntests=$(sed -n 's/^Total Tests: //p' "$log")
    if [ "${ntests:-0}" -gt 0 ] && grep -q ' unit\.' "$log"; then
        say ".ci/setup --tests: configured and built $ntests tests, ${setup_secs}s"
    else
        fail ".ci/setup --tests: ctest lists no unit tests: $(cat "$log")"
    fi

    say "== 5. the first command over a build/ configured with the tests"
    in_root again.log "$first"
    check_first "after --tests"

    if [ "$failures" -gt 0 ]; then
        say "$failures check(s) failed"
        exit 1
    fi
    exit 0
fi


# ---------------------------------------------------------------------------
# Outside: the options, the host's toolkit, then debian_root.sh's droot_start.
# ---------------------------------------------------------------------------
rev=${CUDALINT_FRESH_COMMIT:-HEAD}
keep=0
while [ $# -gt 0 ]; do
    case $1 in
        --commit) rev=${2:?--commit needs a revision}; shift 2 ;;
        --commit=*) rev=${1#--commit=}; shift ;;
        --keep) keep=1; shift ;;
        -h|--help) sed -n '2,/^set -u/p' "$self" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        *) echo "usage: $0 [--commit REV] [--keep]" >&2; exit 2 ;;
    esac
done

# The host's CUDA Toolkit, looked for as cudalint does ($CUDA_PATH, nvcc on
# PATH, /usr/local/cuda).
FRESH_TOOLKIT=""
if [ "${CUDALINT_FRESH_TOOLKIT:-}" != none ]; then
    nvcc_root=""
    nvcc=$(command -v nvcc 2>/dev/null) && nvcc_root=$(dirname "$(dirname "$(readlink -f "$nvcc")")")
    for t in ${CUDALINT_FRESH_TOOLKIT:-} ${CUDA_PATH:-} $nvcc_root /usr/local/cuda; do
        if [ -f "$t/include/cuda_runtime.h" ]; then
            FRESH_TOOLKIT=$(readlink -f "$t")
            break
        fi
    done
fi
export FRESH_TOOLKIT
droot_start "$self" "$rev" "$keep"
