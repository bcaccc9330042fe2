#!/usr/bin/env bash
# Installs the debug adapters that mcp-debugger's tests and demo use, when
# they are missing. Idempotent: a machine that has them is left alone.
#   scripts/install-adapters.sh [python] [go] [native] [ruby] [node] [java] [browser] ...
# (default: all). node and java need only the runtime (their adapters are
# built in); browser is the headless Chromium the live page's tests drive.
set -euo pipefail

want=("$@")
[ ${#want[@]} -gt 0 ] || want=(python go native ruby node java browser)

sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null && sudo_cmd=(sudo) || { echo "install-adapters: run as root (or install sudo)" >&2; exit 1; }
fi

apt_updated=0
apt_install() {
  if [ $apt_updated -eq 0 ]; then
    "${sudo_cmd[@]}" apt-get update -qq
    apt_updated=1
  fi
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq "$@" >/dev/null
}

for lang in "${want[@]}"; do
  case "$lang" in
    python)
      if /usr/bin/python3 -c 'import debugpy' 2>/dev/null; then
        echo "python: debugpy present ($(/usr/bin/python3 -c 'import debugpy; print(debugpy.__version__)'))"
      else
        echo "python: installing python3-debugpy"
        apt_install python3-debugpy
      fi
      # debug_test runs pytest.
      if /usr/bin/python3 -c 'import pytest' 2>/dev/null || python3 -c 'import pytest' 2>/dev/null; then
        echo "python: pytest present"
      else
        echo "python: installing python3-pytest"
        apt_install python3-pytest
      fi
      ;;
    go)
      gobin="$(go env GOBIN)"; [ -n "$gobin" ] || gobin="$(go env GOPATH)/bin"
      if [ -x "$gobin/dlv" ] || command -v dlv >/dev/null; then
        echo "go: dlv present ($("${gobin}/dlv" version 2>/dev/null | sed -n 's/^Version: //p'))"
      else
        echo "go: installing dlv"
        go install github.com/go-delve/delve/cmd/dlv@latest
      fi
      ;;
    native)
      if command -v lldb-dap >/dev/null || ls /usr/bin/lldb-dap-* >/dev/null 2>&1; then
        echo "native: lldb-dap present ($(ls /usr/bin/lldb-dap-* 2>/dev/null | sort -V | tail -1))"
      else
        echo "native: installing lldb-22 (lldb-dap-22)"
        apt_install lldb-22
      fi
      ;;
    ruby)
      if command -v rdbg >/dev/null || ls /usr/lib/ruby/gems/*/gems/debug-*/exe/rdbg >/dev/null 2>&1; then
        echo "ruby: rdbg present"
      else
        echo "ruby: installing ruby (with the debug gem's rdbg)"
        apt_install ruby
      fi
      # A program beside a Gemfile runs under Bundler (ruby -rbundler/setup).
      if ruby -e 'require "bundler"' >/dev/null 2>&1; then
        echo "ruby: bundler present"
      else
        echo "ruby: installing ruby-bundler"
        apt_install ruby-bundler
      fi
      ;;
    node)
      if command -v node >/dev/null; then
        echo "node: node present ($(node --version))"
      else
        echo "node: installing nodejs"
        apt_install nodejs
      fi
      # The TypeScript project test installs tsx, and the schema test
      # (TestEverySchemaCompilesUnderAjvStrict) ajv, from the npm registry.
      if command -v npm >/dev/null; then
        echo "node: npm present ($(npm --version))"
      else
        echo "node: installing npm"
        apt_install npm
      fi
      ;;
    java)
      if command -v javac >/dev/null; then
        echo "java: JDK present ($(javac -version 2>&1))"
      else
        echo "java: installing openjdk-17-jdk-headless"
        apt_install openjdk-17-jdk-headless
      fi
      if command -v kotlinc >/dev/null; then
        echo "java: kotlinc present"
      else
        echo "java: installing kotlin (kotlinc, for the Kotlin test)"
        apt_install --no-install-recommends kotlin
      fi
      if [ -f /usr/share/java/junit-platform-console-standalone.jar ]; then
        echo "java: JUnit console launcher present"
      else
        echo "java: installing junit5 (the JUnit console launcher, for debug_test)"
        apt_install --no-install-recommends junit5
      fi
      ;;
    browser)
      if command -v chromium >/dev/null; then
        echo "browser: chromium present"
      else
        echo "browser: installing chromium"
        apt_install chromium
      fi
      ;;
    *)
      echo "install-adapters: unknown language $lang" >&2
      exit 2
      ;;
  esac
done
