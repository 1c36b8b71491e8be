#!/bin/sh
# tests/deb_test.sh: the Debian package (`cpack -G DEB`) installs and runs on a
# clean Debian 12.  Outside, makes the package from the build directory and
# checks its Depends: (the libclang runtime and clang's resource headers, which
# cudalint loads at run time, the C and C++ library headers every parse reads,
# and sqlite, cJSON, libyaml, xxHash from dpkg-shlibdeps); then, in the clean root of tests/debian_root.sh (shared with
# tests/fresh_machine.sh), as root:
#   1. `apt-get install ./cudalint_*.deb`: apt must find every dependency;
#   2. `cudalint --version` runs from /usr/bin;
#   3. it lints a fixture (exit 1, the expected findings, no clang error) and
#      standard input (--fix to stdout);
#   4. the man page and the bash and zsh completions are where man, bash and
#      Debian's zsh look, and the bash completion loads.
# usage: tests/deb_test.sh [BUILD_DIR] [--keep]   (default: $CUDALINT's directory, else build/)
# Needs root and the network (apt); minutes.  Exit 77 when no root can be made.
set -u

self=$(cd "$(dirname "$0")" && pwd)/$(basename "$0")
DROOT_NAME=deb_test
. "$(dirname "$self")/debian_root.sh"

if [ "${1:-}" = "--inside" ]; then
    droot_enter "$2"
    deb=$(cd "$work/pkg" && ls cudalint_*.deb)
    cp "$work/pkg/$deb" "$root/tmp/$deb"

    say "== 1. apt-get install ./$deb"
    in_root install.log "apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends /tmp/$deb"
    [ "$rc" = 0 ] || { fail "apt-get install exited $rc"; exit 1; }
    say "installed in ${secs}s"

    say "== 2. cudalint --version"
    in_root version.log "cd /tmp && command -v cudalint && cudalint --version"
    [ "$rc" = 0 ] && grep -q '^/usr/bin/cudalint$' "$log" && grep -q '^cudalint [0-9]' "$log" ||
        fail "cudalint --version (exit $rc)"

    say "== 3. lint a fixture, and standard input"
    in_root lint.log "cd /tmp && cudalint --preview /src/cudalint/tests/data/integrations/double_literal.cu"
    n=$(grep -c 'double_literal.cu:[0-9]*:[0-9]*: warning: .*\[CU201 double-literal\]' "$log")
    [ "$rc" = 1 ] && [ "$n" = 3 ] || fail "linting the fixture: exit $rc, $n CU201 findings (want 1 and 3)"
    ! grep -q 'CU000' "$log" || fail "linting the fixture: clang could not parse it (CU000 above)"
    in_root stdin.log "cd /tmp && cudalint --preview --stdin-filename k.cu --fix < /src/cudalint/tests/data/integrations/double_literal.cu"
    [ "$rc" = 0 ] && grep -q '0.999f + 0.001f' "$log" || fail "--stdin-filename --fix (exit $rc)"

    say "== 4. man page and completions"
    in_root files.log "dpkg -L cudalint"
    for f in /usr/bin/cudalint /usr/share/man/man1/cudalint.1 /usr/share/bash-completion/completions/cudalint \
             /usr/share/zsh/vendor-completions/_cudalint; do
        grep -qx "$f" "$log" || fail "the package has no $f"
    done
    in_root completion.log "bash -c '. /usr/share/bash-completion/completions/cudalint && complete -p cudalint'"
    grep -q -- '-F _cudalint cudalint' "$log" || fail "the bash completion does not load"

    if [ "$failures" -gt 0 ]; then
        say "$failures check(s) failed"
        exit 1
    fi
    exit 0
fi

build=""
keep=0
for a in "$@"; do
    case $a in
        --keep) keep=1 ;;
        -h|--help) sed -n '2,/^set -u/p' "$self" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        *) build=$a ;;
    esac
done
if [ -z "$build" ]; then
    if [ -n "${CUDALINT:-}" ]; then build=$(dirname "$CUDALINT"); else build=$SRC/build; fi
fi
build=$(cd "$build" && pwd) || exit 2
[ -f "$build/CPackConfig.cmake" ] || { say "FAIL: $build has no CPackConfig.cmake (configure it first)"; exit 1; }
if [ "$(id -u)" = 0 ] && ! command -v dpkg-shlibdeps >/dev/null 2>&1; then
    say "SKIP: cpack -G DEB needs dpkg-shlibdeps (apt-get install dpkg-dev)"
    exit 77
fi

# Called by droot_start once $work exists: the package, and its control fields.
droot_before_inside() {
    say "cpack -G DEB in $build"
    (cd "$build" && cpack -G DEB -B "$work/pkg" >"$work/cpack.log" 2>&1) || { tail -n 20 "$work/cpack.log"; return 1; }
    deb=$(ls "$work"/pkg/cudalint_*.deb 2>/dev/null | head -n 1)
    [ -n "$deb" ] || { say "no .deb made"; tail -n 20 "$work/cpack.log"; return 1; }
    depends=$(dpkg-deb -f "$deb" Depends)
    say "$(basename "$deb"): Depends: $depends"
    for p in libclang1-22 libclang-common-22-dev libc6-dev 'libstdc\+\+-[0-9]+-dev' libsqlite3-0 libcjson1 libyaml-0-2 libxxhash0 libc6; do
        echo "$depends" | grep -qE "(^|, )$p( |,|$)" || { say "FAIL: Depends: lacks $p"; return 1; }
    done
}

droot_start "$self" HEAD "$keep"
