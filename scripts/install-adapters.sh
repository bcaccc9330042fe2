#!/usr/bin/env bash
# Installs the debug adapters that mcp-debugger's tests and demo use, and
# brings the ones already installed to the version a fresh machine gets
# today: Debian packages to apt's candidate (up, or down when Debian
# withdrew an update), dlv to `go install @latest`. A used machine then
# tests what a new one would; a green run on an old adapter says nothing
# about the adapter users install.
#   scripts/install-adapters.sh [python] [go] [native] [ruby] [node] [java] [browser] ...
# (default: all). node and java need only the runtime (their adapters are
# built in); browser is the headless Chromium the live page's tests drive.
# A tool that is present but not from a Debian package (a pip debugpy, a
# JDK of your own) is left alone. Offline (apt or the module proxy
# unreachable), what is installed stays as it is.
set -euo pipefail

want=("$@")
[ ${#want[@]} -gt 0 ] || want=(python go native ruby node java browser)

sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null && sudo_cmd=(sudo) || { echo "install-adapters: run as root (or install sudo)" >&2; exit 1; }
fi

# The package lists are read once a run: the candidate is only as fresh as
# they are. DPkg::Lock::Timeout waits for another apt (a matrix run, an
# unattended upgrade) instead of failing.
apt_opts=(-o DPkg::Lock::Timeout=300)
apt_updated=0
apt_update() {
  [ $apt_updated -eq 0 ] || return 0
  apt_updated=1
  "${sudo_cmd[@]}" apt-get "${apt_opts[@]}" update -qq ||
    echo "install-adapters: apt-get update failed; comparing with the package lists already here" >&2
}

installed_version() { # PKG -> its installed version, or nothing
  { dpkg-query -W -f='${db:Status-Abbrev}|${Version}' "$1" 2>/dev/null || true; } | sed -n 's/^ii *|//p'
}

candidate_version() { # PKG -> the version `apt-get install` gives a fresh machine
  apt-cache policy "$1" 2>/dev/null | sed -n 's/^ *Candidate: //p' | grep -v '^(none)$' || true
}

# same_source PKG -> every installed package built from PKG's source
# package. They move together: libruby3.1 needs ruby3.1 of its own
# version, openjdk-17-jdk-headless its jre-headless, and apt does not
# downgrade a dependency it was not named.
same_source() {
  local src
  src=$(dpkg-query -W -f='${source:Package}' "$1" 2>/dev/null) || { echo "$1"; return; }
  dpkg-query -W -f='${db:Status-Abbrev}|${binary:Package}|${source:Package}\n' 2>/dev/null |
    awk -F'|' -v s="$src" '$1 ~ /^ii/ && $3 == s { print $2 }'
}

# apt_current [--no-install-recommends] PKG...: installs each package that
# is missing and brings each installed one (with the packages of its
# source) to its candidate version.
apt_current() {
  apt_update
  local p q inst cand todo=() opts=()
  [ "${1:-}" != --no-install-recommends ] || { opts=("$1"); shift; }
  for p in "$@"; do
    inst=$(installed_version "$p")
    cand=$(candidate_version "$p")
    if [ -z "$cand" ]; then
      echo "install-adapters: Debian offers no $p here (apt-cache policy $p)" >&2
      exit 1
    fi
    if [ -z "$inst" ]; then
      echo "  $p: installing $cand"
      todo+=("$p")
      continue
    fi
    for q in $(same_source "$p"); do
      inst=$(installed_version "$q")
      cand=$(candidate_version "$q")
      if [ -n "$cand" ] && [ "$inst" != "$cand" ]; then
        echo "  $q: $inst -> $cand (what a fresh machine gets)"
        todo+=("$q=$cand")
      fi
    done
  done
  [ ${#todo[@]} -gt 0 ] || return 0
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get "${apt_opts[@]}" install -y -qq \
    --allow-downgrades "${opts[@]}" "${todo[@]}" >/dev/null
}

# current_if_packaged [--no-install-recommends] PKG CHECK...: PKG from
# Debian is brought current when it is installed; when it is not, it is
# installed only if CHECK (a command) fails, so a tool of the user's own
# is left alone.
current_if_packaged() {
  local opts=()
  [ "$1" != --no-install-recommends ] || { opts=("$1"); shift; }
  local pkg="$1"; shift
  if [ -n "$(installed_version "$pkg")" ] || ! "$@" >/dev/null 2>&1; then
    apt_current "${opts[@]}" "$pkg"
  fi
}

has_command() { command -v "$1" >/dev/null; }

dlv_current() {
  local gobin have latest
  gobin="$(go env GOBIN)"; [ -n "$gobin" ] || gobin="$(go env GOPATH)/bin"
  have=$("$gobin/dlv" version 2>/dev/null | sed -n 's/^Version: //p' || true)
  # Outside any module: @latest is the proxy's, not this go.mod's.
  latest=$(cd / && timeout 60 go list -m -f '{{.Version}}' github.com/go-delve/delve@latest 2>/dev/null | sed 's/^v//' || true)
  if [ -n "$have" ] && { [ -z "$latest" ] || [ "$have" = "$latest" ]; }; then
    echo "go: dlv $have${latest:+ (latest)}"
    return
  fi
  echo "go: installing dlv ${latest:-@latest}${have:+ (was $have)}"
  (cd / && go install "github.com/go-delve/delve/cmd/dlv@${latest:+v$latest}${latest:-latest}")
}

for lang in "${want[@]}"; do
  case "$lang" in
    python)
      current_if_packaged python3-debugpy /usr/bin/python3 -c 'import debugpy'
      echo "python: debugpy $(/usr/bin/python3 -c 'import debugpy; print(debugpy.__version__)')"
      # debug_test runs pytest.
      current_if_packaged python3-pytest /usr/bin/python3 -c 'import pytest'
      ;;
    go)
      dlv_current
      ;;
    native)
      current_if_packaged lldb-22 sh -c 'command -v lldb-dap || ls /usr/bin/lldb-dap-*'
      echo "native: lldb-dap $(ls /usr/bin/lldb-dap-* 2>/dev/null | sort -V | tail -1)"
      ;;
    ruby)
      # The debug gem (rdbg) ships inside libruby: it follows the ruby
      # packages, so bringing them current brings the gem current.
      current_if_packaged ruby has_command ruby
      for lib in $(dpkg-query -W -f='${db:Status-Abbrev}|${binary:Package}\n' 'libruby[0-9]*' 2>/dev/null | sed -n 's/^ii *|//p'); do
        apt_current "$lib"
      done
      echo "ruby: $(ruby -e 'print RUBY_VERSION') with debug gem $(ruby -e 'require "debug/version"; print DEBUGGER__::VERSION' 2>/dev/null || echo '(none)')"
      # The tests run `bundle` (Gemfile.lock). Ruby 3.1 has bundler as a
      # default gem without the `bundle` command: check for the command.
      current_if_packaged ruby-bundler has_command bundle
      ;;
    node)
      current_if_packaged nodejs has_command node
      echo "node: $(node --version)"
      # The TypeScript project test installs tsx, and the schema test
      # (TestEverySchemaCompilesUnderAjvStrict) ajv, from the npm registry.
      # NodeSource's nodejs carries npm itself; Debian's has it apart.
      current_if_packaged npm has_command npm
      # The MCP clients the HTTP tests drive (TestInspectorCLIKeepsASessionOverHTTP,
      # TestTypeScriptSDKDrivesPythonOverHTTP), pinned, in the user's cache
      # where the tests look (or $MCP_DEBUGGER_MCP_CLIENTS), with the Node
      # they run on (the registry's node package: the Inspector wants 22,
      # Debian 12 has 18).
      mcp_clients="${MCP_DEBUGGER_MCP_CLIENTS:-${XDG_CACHE_HOME:-$HOME/.cache}/mcp-debugger/mcp-clients}"
      mkdir -p "$mcp_clients"
      npm install --prefix "$mcp_clients" --no-audit --no-fund --loglevel=error node@22.23.3 \
        @modelcontextprotocol/inspector@2.12.0 @modelcontextprotocol/sdk@1.32.2 @modelcontextprotocol/client@2.4.0 ||
        echo "install-adapters: npm install of the MCP clients failed; keeping what $mcp_clients has" >&2
      ;;
    java)
      current_if_packaged openjdk-17-jdk-headless has_command javac
      echo "java: $(javac -version 2>&1)"
      current_if_packaged --no-install-recommends kotlin has_command kotlinc
      # debug_test's JUnit console launcher.
      current_if_packaged --no-install-recommends junit5 test -f /usr/share/java/junit-platform-console-standalone.jar
      # JUnit 4's JUnitCore, for tests built without Maven or Gradle.
      current_if_packaged --no-install-recommends junit4 test -f /usr/share/java/junit4.jar
      ;;
    browser)
      current_if_packaged chromium has_command chromium
      ;;
    *)
      echo "install-adapters: unknown language $lang" >&2
      exit 2
      ;;
  esac
done
