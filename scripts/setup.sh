#!/usr/bin/env bash
# Installs what a fresh Debian machine lacks to build, run and test the extension, and nothing it
# already has (safe to run again):
#   1. Debian packages: Chromium (the editor's window in tests), ripgrep, and what code-server's
#      native modules compile against. apt runs only when one is missing (as root, or via sudo).
#   2. Every code-server build in scripts/editor-hosts.json into the per-user cache (scripts/editor-cache.mjs):
#      oldest 4.100.3 (= VS Code 1.100.3, on this machine's Node 20; its ripgrep download is answered
#      from a local cache made from Debian's rg) and newest (needs Node 24: the npm package
#      node@<version> is installed beside it, and code-server is installed and runs under that).
#      Each step is skipped when its result is already there, so a second run needs no network.
# See ../shared/vscode-host.md for why each step is needed.
#   bash scripts/setup.sh            every editor build
#   bash scripts/setup.sh oldest     only the builds named (ids in scripts/editor-hosts.json)
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# A per-user cache shared by every clone and worktree (the same rule as scripts/editor-cache.mjs).
CACHE="${AWB_EDITOR_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/api-workbench/editors}"
mkdir -p "$CACHE"
CACHE="$(cd "$CACHE" && pwd)"
HOSTS_FILE="$ROOT/scripts/editor-hosts.json"
# build-essential/python3: node-gyp builds code-server's native modules (kerberos, node-pty, ...).
APT_PACKAGES=(chromium ripgrep libkrb5-dev libx11-dev libxkbfile-dev libsecret-1-dev pkg-config build-essential python3)
# @vscode/ripgrep as pinned by code-server 4.100.3's VS Code, and the asset its postinstall fetches
# (newer code-server ships @vscode/ripgrep-universal with the binaries inside: no download).
RIPGREP_PKG_VERSION=1.15.11
RIPGREP_ASSET_VERSION=v13.0.0-10

say() { printf '[setup] %s\n' "$*"; }

# --- A clean npm environment -------------------------------------------------------------------------
# Under `npm test` this script inherits the outer npm's variables (npm_config_user_agent naming Node 20,
# npm_config_*, npm_package_*, npm_lifecycle_*, INIT_CWD, NODE) and the node_modules/.bin and
# node-gyp-bin folders npm puts first on PATH. The inner installs must not see them: code-server's
# postinstall reads the Node major from npm_config_user_agent and refuses when it says v20 under
# Node 24, and an outer npm_config_* would silently change how the inner npm behaves.
while IFS= read -r var; do
  unset "$var"
done < <(compgen -e | grep -E '^(npm_|NPM_|INIT_CWD$|NODE$|NODE_OPTIONS$)' || true)
clean_path=""
IFS=: read -r -a path_parts <<<"$PATH"
for part in "${path_parts[@]}"; do
  case "$part" in */node_modules/.bin | */node-gyp-bin | "") continue ;; esac
  clean_path="${clean_path:+$clean_path:}$part"
done
export PATH="$clean_path"
unset clean_path path_parts part var
die() { printf '[setup] ERROR: %s\n' "$*" >&2; exit 1; }

# --- Node ------------------------------------------------------------------------------------------
command -v node >/dev/null || die "node is not installed (Node 20 is required)"
NODE_MAJOR="$(node -p 'process.versions.node.split(".")[0]')"
# The project builds and tests on Node 20, and the oldest code-server runs on it.
[ "$NODE_MAJOR" = 20 ] || die "the project and code-server 4.100.3 need Node 20; this is Node $(node -v)"

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

# --- ripgrep cache (code-server 4.100.3) -------------------------------------------------------------
# @vscode/ripgrep's postinstall downloads rg from GitHub, which this machine cannot reach. It looks in
# this cache first, so a tarball with Debian's rg at its root makes the install work offline.
make_ripgrep_cache() {
  local rg_target rg_cache_dir rg_bin
  case "$(uname -m)" in
    x86_64) rg_target=x86_64-unknown-linux-musl ;;
    aarch64 | arm64) rg_target=aarch64-unknown-linux-musl ;;
    *) die "no ripgrep cache recipe for $(uname -m)" ;;
  esac
  rg_cache_dir="${TMPDIR:-/tmp}/vscode-ripgrep-cache-$RIPGREP_PKG_VERSION"
  RG_TARBALL="$rg_cache_dir/ripgrep-$RIPGREP_ASSET_VERSION-$rg_target.tar.gz"
  if [ -s "$RG_TARBALL" ]; then
    say "ripgrep cache present: $RG_TARBALL"
    return
  fi
  rg_bin="$(command -v rg)" || die "rg not found (package ripgrep)"
  mkdir -p "$rg_cache_dir"
  tar czf "$RG_TARBALL" -C "$(dirname "$(readlink -f "$rg_bin")")" "$(basename "$(readlink -f "$rg_bin")")"
  # The tarball must hold a file named rg at its root.
  tar tzf "$RG_TARBALL" | grep -qx rg || { rm -f "$RG_TARBALL"; die "could not build the ripgrep cache tarball from $rg_bin"; }
  say "ripgrep cache made from $rg_bin: $RG_TARBALL"
}

# --- Node for a newer code-server ------------------------------------------------------------------
# The npm package node@<version> (a preinstall fetches the matching node-<os>-<arch> package, headers
# included). Sets HOST_NODE (the binary) and HOST_NODEDIR (its headers, for node-gyp offline).
install_node() {
  local version="$1" dir="$CACHE/node-$1"
  HOST_NODE="$dir/node_modules/node/bin/node"
  node_ok() {
    [ -x "$HOST_NODE" ] && [ "$("$HOST_NODE" -v 2>/dev/null)" = "v$version" ] &&
      HOST_NODEDIR="$(dirname "$(dirname "$(dirname "$(find "$dir/node_modules" -path '*/include/node/node.h' -print -quit)")")")" &&
      [ -f "$HOST_NODEDIR/include/node/node.h" ]
  }
  if node_ok; then
    say "Node $version present in ${dir#"$ROOT"/}"
    return
  fi
  say "installing Node $version (npm package node@$version) into ${dir#"$ROOT"/}"
  rm -rf "$dir/node_modules"
  mkdir -p "$dir"
  cat >"$dir/package.json" <<JSON
{
  "name": "node-cache",
  "private": true,
  "dependencies": { "node": "$version" },
  "allowScripts": { "node": true }
}
JSON
  (cd "$dir" && npm install --no-audit --no-fund --loglevel=warn) || die "npm install node@$version failed (see above)"
  node_ok || die "node@$version is installed incompletely in $dir (no bin/node reporting v$version, or no headers)"
}

# --- Python SDKs for the Copy as Code tests ------------------------------------------------------------
# Generated SDK code (test/unit/codegen) runs with the official Python SDKs (openai, pusher) and is
# checked with black; they go into a venv in the per-user cache (never the system's Python), which sees
# the system's `requests`. A package the index does not give is said, not fatal: its tests skip saying so.
PY_VENV="${XDG_CACHE_HOME:-$HOME/.cache}/api-workbench/python"
if command -v python3 >/dev/null; then
  [ -x "$PY_VENV/bin/python" ] || python3 -m venv --system-site-packages "$PY_VENV" || say "could not make a Python venv in $PY_VENV (python3-venv missing?)"
  for pkg in openai pusher black; do
    mod="$pkg"
    if [ -x "$PY_VENV/bin/python" ] && ! "$PY_VENV/bin/python" -c "import $mod" 2>/dev/null; then
      "$PY_VENV/bin/pip" install -q "$pkg" || say "pip could not install $pkg: the tests that need it are skipped"
    fi
  done
fi

# --- code-server -----------------------------------------------------------------------------------
# What code-server's postinstall produces (it installs VS Code's own dependencies and native modules
# in lib/vscode, then lib/vscode/extensions): npm 11 may skip install scripts ("not yet covered by
# allowScripts") and still exit 0, so check the results instead of trusting the exit code.
cs_problems() {
  local dir="$1" version="$2"
  local vscode="$dir/lib/vscode"
  [ -f "$dir/out/node/entry.js" ] || echo "missing: out/node/entry.js"
  [ "$(node -p "require('$dir/package.json').version" 2>/dev/null)" = "$version" ] || echo "not version $version: $dir/package.json"
  # 4.100's postinstall links node_modules.asar; newer ones have no such step.
  if grep -q 'node_modules.asar' "$dir/postinstall.sh" 2>/dev/null && [ ! -L "$vscode/node_modules.asar" ]; then
    echo "missing: lib/vscode/node_modules.asar symlink (code-server's postinstall did not run or failed)"
  fi
  [ -f "$vscode/node_modules/@vscode/spdlog/build/Release/spdlog.node" ] || echo "missing: VS Code's native modules (lib/vscode/node_modules/@vscode/spdlog was not built)"
  [ -d "$vscode/extensions/node_modules" ] || echo "missing: lib/vscode/extensions/node_modules (the postinstall's last step)"
  [ -n "$(find "$vscode/node_modules/@vscode" -maxdepth 4 -path '*ripgrep*/bin*' -name rg -perm -u+x -print -quit 2>/dev/null)" ] ||
    echo "missing: ripgrep's rg (@vscode/ripgrep's postinstall did not run or could not use the cache tarball)"
  [ -n "$(find "$vscode/node_modules/node-pty" \( -path '*/build/Release/pty.node' -o -path "*/prebuilds/linux-*/pty.node" \) -print -quit 2>/dev/null)" ] ||
    echo "missing: node-pty's native module"
}

install_code_server() {
  local version="$1" node_version="$2"
  local cs_cache="$CACHE/code-server-$version"
  local cs_dir="$cs_cache/node_modules/code-server"
  local node_bin="node" nodedir="" started problems

  if [ "$node_version" != - ]; then
    install_node "$node_version"
    node_bin="$HOST_NODE"
    nodedir="$HOST_NODEDIR"
  fi

  if problems="$(cs_problems "$cs_dir" "$version")" && [ -z "$problems" ]; then
    say "code-server $version present in ${cs_dir#"$ROOT"/}"
  else
    if [ "$node_version" = - ]; then
      make_ripgrep_cache
      # node-gyp needs Node's headers; offline it must find them locally instead of downloading them.
      local configured_nodedir
      configured_nodedir="$(npm config get nodedir 2>/dev/null || true)"
      if [ -z "${npm_config_nodedir:-}" ] && { [ -z "$configured_nodedir" ] || [ "$configured_nodedir" = undefined ] || [ "$configured_nodedir" = null ]; }; then
        local node_prefix
        node_prefix="$(dirname "$(dirname "$(readlink -f "$(command -v node)")")")"
        [ -f "$node_prefix/include/node/node.h" ] && nodedir="$node_prefix"
      fi
    fi
    say "installing code-server $version into ${cs_cache#"$ROOT"/} under Node $("$node_bin" -v) (a few minutes)"
    rm -rf "$cs_cache/node_modules"
    mkdir -p "$cs_cache"
    # A project of its own (not the extension's devDependencies: 180+ MB with native builds). allowScripts
    # approves the install scripts code-server needs for npm versions that gate them.
    cat >"$cs_cache/package.json" <<JSON
{
  "name": "code-server-cache",
  "private": true,
  "dependencies": { "code-server": "$version" },
  "allowScripts": { "code-server": true, "argon2": true }
}
JSON
    started=$(date +%s)
    # npm itself runs under the build's Node (first on PATH): code-server's postinstall checks the Node
    # major in npm's user agent, and the native modules are built for that Node.
    # --unsafe-perm: as root, npm would otherwise run the postinstall without the rights it needs.
    # npm_config_yes: node-pty's build runs `npx node-gyp`, which must not stop to ask.
    if ! (
      cd "$cs_cache"
      [ "$node_bin" = node ] || export PATH="$(dirname "$node_bin"):$PATH"
      [ -z "$nodedir" ] || export npm_config_nodedir="$nodedir"
      npm_config_yes=true npm install --unsafe-perm --no-audit --no-fund --loglevel=warn
    ); then
      die "npm install code-server@$version failed (see above)"
    fi
    problems="$(cs_problems "$cs_dir" "$version")" || problems="${problems:-could not check the install}"
    if [ -n "$problems" ]; then
      printf '[setup] %s\n' "$problems"
      die "code-server $version is installed incompletely in $cs_dir; fix the cause above and run this script again"
    fi
    say "code-server $version installed in $(($(date +%s) - started)) s"
  fi

  # It must start under its Node (a config file of its own: code-server writes ~/.config/code-server otherwise).
  [ -f "$cs_cache/config.yaml" ] || printf 'auth: none\ncert: false\n' >"$cs_cache/config.yaml"
  local reported
  reported="$("$node_bin" "$cs_dir/out/node/entry.js" --config "$cs_cache/config.yaml" --version 2>&1 | tail -1)" || true
  case "$reported" in
    "$version "*) say "code-server runs under Node $("$node_bin" -v): $reported" ;;
    *) die "code-server $version does not run under $node_bin: $reported" ;;
  esac
}

mapfile -t HOSTS < <(node -e '
  for (const h of JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")).hosts) console.log(h.id, h.codeServer, h.node ?? "-");
' "$HOSTS_FILE")
[ "${#HOSTS[@]}" -gt 0 ] || die "no editor builds listed in $HOSTS_FILE"
for wanted in "$@"; do
  printf '%s\n' "${HOSTS[@]}" | grep -q "^$wanted " || die "unknown editor build \"$wanted\" (see $HOSTS_FILE)"
done
for host in "${HOSTS[@]}"; do
  read -r id version node_version <<<"$host"
  if [ "$#" -gt 0 ] && ! printf '%s\n' "$@" | grep -qx "$id"; then continue; fi
  say "editor build \"$id\": code-server $version"
  install_code_server "$version" "$node_version"
done
