#!/bin/sh
# package.sh: builds editor/vscode/cudalint-<version>.vsix with @vscode/vsce,
# installed from package-lock.json (npm ci), so the build is reproducible.
# Install the result with: code --install-extension editor/vscode/cudalint-<version>.vsix
set -eu
cd "$(dirname "$0")"
command -v npm >/dev/null 2>&1 || { echo "package.sh: npm is needed (Debian: apt-get install npm)" >&2; exit 2; }
version=$(node -p "require('./package.json').version")
out=cudalint-$version.vsix
# The installed packages must match the lock file exactly.
npm ci --no-audit --no-fund --loglevel=error
# The repository's LICENSE ships inside the extension when there is one.
cleanup() { [ -n "${copied:-}" ] && rm -f LICENSE; return 0; }
trap cleanup EXIT
if [ ! -f LICENSE ] && [ -f ../../LICENSE ]; then
    cp ../../LICENSE LICENSE
    copied=1
fi
if [ -f LICENSE ]; then
    npx --no-install vsce package --out "$out"
else
    npx --no-install vsce package --skip-license --out "$out"
fi
echo "built $(pwd)/$out"
