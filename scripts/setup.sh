#!/usr/bin/env bash
# Installs what a fresh Debian machine lacks to build, run and test the extension, and nothing it
# already has (safe to run again):
#   1. Debian packages: Chromium (the editor's window in tests), ripgrep, and what code-server's
#      native modules compile against. apt runs only when one is missing (as root, or via sudo).
#   2. code-server 4.100.3 (= VS Code 1.100.3, needs Node 20) into .vscode-test/ (git-ignored).
#      Offline-safe: its ripgrep download is answered from a local cache made from Debian's rg.
# See ../shared/vscode-host.md for why each step is needed.
#   bash scripts/setup.sh
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CS_VERSION=4.100.3
CS_CACHE="$ROOT/.vscode-test/code-server-$CS_VERSION"
CS_DIR="$CS_CACHE/node_modules/code-server"
# build-essential/python3: node-gyp builds code-server's native modules (kerberos, node-pty, ...).
APT_PACKAGES=(chromium ripgrep libkrb5-dev libx11-dev libxkbfile-dev libsecret-1-dev pkg-config build-essential python3)
# @vscode/ripgrep as pinned by code-server 4.100.3's VS Code, and the asset its postinstall fetches.
RIPGREP_PKG_VERSION=1.15.11
RIPGREP_ASSET_VERSION=v13.0.0-10

say() { printf '[setup] %s\n' "$*"; }
die() { printf '[setup] ERROR: %s\n' "$*" >&2; exit 1; }

# --- Node ------------------------------------------------------------------------------------------
command -v node >/dev/null || die "node is not installed (Node 20 is required)"
NODE_MAJOR="$(node -p 'process.versions.node.split(".")[0]')"
[ "$NODE_MAJOR" = 20 ] || die "code-server $CS_VERSION needs Node 20; this is Node $(node -v)"

# --- Debian packages -------------------------------------------------------------------------------
missing=()
for p in "${APT_PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ "${#missing[@]}" -eq 0 ]; then
  say "Debian packages present: ${APT_PACKAGES[*]}"
else
  say "installing Debian packages: ${missing[*]}"
  if [ "$(id -u)" = 0 ]; then SUDO=(); elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then SUDO=(sudo -n); else
    die "missing Debian packages (${missing[*]}); run as root or with passwordless sudo: apt-get install ${missing[*]}"
  fi
  export DEBIAN_FRONTEND=noninteractive
  "${SUDO[@]}" apt-get update -q
  "${SUDO[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}"
fi
[ -x /usr/bin/chromium ] || die "/usr/bin/chromium is missing after installing the chromium package"

# --- code-server -----------------------------------------------------------------------------------
cs_ok() {
  [ -f "$CS_DIR/out/node/entry.js" ] &&
    [ -L "$CS_DIR/lib/vscode/node_modules.asar" ] &&
    [ -x "$CS_DIR/lib/vscode/node_modules/@vscode/ripgrep/bin/rg" ] &&
    [ -f "$CS_DIR/lib/vscode/node_modules/node-pty/build/Release/pty.node" ] &&
    [ "$(node -p "require('$CS_DIR/package.json').version" 2>/dev/null)" = "$CS_VERSION" ]
}

if cs_ok; then
  say "code-server $CS_VERSION present in ${CS_DIR#"$ROOT"/}"
  exit 0
fi

# @vscode/ripgrep's postinstall downloads rg from GitHub, which this machine cannot reach. It looks in
# this cache first, so a tarball with Debian's rg at its root makes the install work offline.
case "$(uname -m)" in
  x86_64) RG_TARGET=x86_64-unknown-linux-musl ;;
  aarch64 | arm64) RG_TARGET=aarch64-unknown-linux-musl ;;
  *) die "no ripgrep cache recipe for $(uname -m)" ;;
esac
RG_CACHE_DIR="${TMPDIR:-/tmp}/vscode-ripgrep-cache-$RIPGREP_PKG_VERSION"
RG_TARBALL="$RG_CACHE_DIR/ripgrep-$RIPGREP_ASSET_VERSION-$RG_TARGET.tar.gz"
if [ -s "$RG_TARBALL" ]; then
  say "ripgrep cache present: $RG_TARBALL"
else
  RG_BIN="$(command -v rg)" || die "rg not found (package ripgrep)"
  mkdir -p "$RG_CACHE_DIR"
  tar czf "$RG_TARBALL" -C "$(dirname "$(readlink -f "$RG_BIN")")" "$(basename "$(readlink -f "$RG_BIN")")"
  # The tarball must hold a file named rg at its root.
  tar tzf "$RG_TARBALL" | grep -qx rg || { rm -f "$RG_TARBALL"; die "could not build the ripgrep cache tarball from $RG_BIN"; }
  say "ripgrep cache made from $RG_BIN: $RG_TARBALL"
fi

# node-gyp needs Node's headers; offline it must find them locally instead of downloading them.
configured_nodedir="$(npm config get nodedir 2>/dev/null || true)"
if [ -z "${npm_config_nodedir:-}" ] && { [ -z "$configured_nodedir" ] || [ "$configured_nodedir" = undefined ] || [ "$configured_nodedir" = null ]; }; then
  NODE_PREFIX="$(dirname "$(dirname "$(readlink -f "$(command -v node)")")")"
  if [ -f "$NODE_PREFIX/include/node/node.h" ]; then
    export npm_config_nodedir="$NODE_PREFIX"
    say "node-gyp will use the headers in $NODE_PREFIX/include/node"
  fi
fi

say "installing code-server $CS_VERSION into ${CS_CACHE#"$ROOT"/} (about a minute)"
rm -rf "$CS_CACHE/node_modules"
mkdir -p "$CS_CACHE"
# A project of its own (not the extension's devDependencies: 180 MB with native builds). allowScripts
# approves the install scripts code-server needs for npm versions that gate them.
cat >"$CS_CACHE/package.json" <<EOF
{
  "name": "code-server-cache",
  "private": true,
  "dependencies": { "code-server": "$CS_VERSION" },
  "allowScripts": { "code-server": true, "argon2": true }
}
EOF
started=$(date +%s)
# --unsafe-perm: as root, npm would otherwise run the postinstall without the rights it needs.
# npm_config_yes: node-pty's build runs `npx node-gyp`, which must not stop to ask.
if ! (cd "$CS_CACHE" && npm_config_yes=true npm install --unsafe-perm --no-audit --no-fund --loglevel=warn); then
  die "npm install code-server@$CS_VERSION failed (see above)"
fi

# npm 11 may skip dependency install scripts ("not yet covered by allowScripts") and still exit 0:
# check what code-server's postinstall produces instead of trusting the exit code.
if ! cs_ok; then
  [ -L "$CS_DIR/lib/vscode/node_modules.asar" ] || say "missing: lib/vscode/node_modules.asar symlink (code-server's postinstall did not run or failed)"
  [ -x "$CS_DIR/lib/vscode/node_modules/@vscode/ripgrep/bin/rg" ] || say "missing: @vscode/ripgrep's rg (its postinstall did not run or could not use $RG_TARBALL)"
  [ -f "$CS_DIR/lib/vscode/node_modules/node-pty/build/Release/pty.node" ] || say "missing: node-pty's native build"
  die "code-server $CS_VERSION is installed incompletely in $CS_DIR; fix the cause above and run this script again"
fi
say "code-server $CS_VERSION installed in $(($(date +%s) - started)) s"
