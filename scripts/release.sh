#!/bin/sh
# Builds the release archives of mcp-debugger into dist/: one per target
# (tar.gz; zip for Windows) holding the binary and README.md (and LICENSE
# once there is one), and SHA256SUMS. The version (VERSION, else `git describe`) is stamped with
# -ldflags -X main.version, which both `mcp-debugger version` and the MCP
# serverInfo.version report; the binary for this machine's own platform is
# run to check that it says so.
set -eu

cd "$(dirname "$0")/.."
GO=${GO:-go}
TARGETS=${TARGETS:-"linux/amd64 linux/arm64 darwin/amd64 darwin/arm64 windows/amd64"}
VERSION=${VERSION:-$(git describe --tags --always --dirty 2>/dev/null || echo dev)}
host=$($GO env GOOS)/$($GO env GOARCH)

case " $TARGETS " in
*" windows/"*)
	# Windows archives are zips: say so before building anything.
	command -v zip >/dev/null || { echo "release: zip is needed for the Windows archives (apt-get install -y zip)" >&2; exit 1; }
	;;
esac

rm -rf dist
mkdir -p dist/stage

# check_version runs a built binary and fails unless `version` and the
# serverInfo of an MCP initialize both say $VERSION.
check_version() {
	said=$("$1" version)
	case $said in
	"mcp-debugger $VERSION "*) ;;
	*)
		echo "release: $1 version says \"$said\", want $VERSION" >&2
		exit 1
		;;
	esac
	init='{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"release.sh","version":"1"}}}'
	reply=$(echo "$init" | "$1" stdio --log-level warn 2>/dev/null | head -n 1)
	case $reply in
	*'"serverInfo":{'*'"version":"'"$VERSION"'"'*) ;;
	*)
		echo "release: $1 serverInfo does not say $VERSION: $reply" >&2
		exit 1
		;;
	esac
	echo "release: $1 says $VERSION"
}

for target in $TARGETS; do
	os=${target%/*}
	arch=${target#*/}
	name=mcp-debugger-$VERSION-$os-$arch
	exe=mcp-debugger
	[ "$os" = windows ] && exe=mcp-debugger.exe
	mkdir -p "dist/stage/$name"
	CGO_ENABLED=0 GOOS=$os GOARCH=$arch $GO build -trimpath -buildvcs=auto \
		-ldflags "-s -w -X main.version=$VERSION" \
		-o "dist/stage/$name/$exe" ./cmd/mcp-debugger
	cp README.md "dist/stage/$name/"
	if [ -f LICENSE ]; then cp LICENSE "dist/stage/$name/"; fi
	if [ "$target" = "$host" ]; then
		check_version "dist/stage/$name/$exe"
	fi
	if [ "$os" = windows ]; then
		(cd dist/stage && zip -qr "../$name.zip" "$name")
	else
		tar -czf "dist/$name.tar.gz" -C dist/stage "$name"
	fi
done
rm -rf dist/stage

cd dist
# Only the archives made: a list of targets without Windows has no zip.
archives=$(ls -- *.tar.gz *.zip 2>/dev/null || true)
if command -v sha256sum >/dev/null; then
	sha256sum -- $archives >SHA256SUMS
else
	shasum -a 256 -- $archives >SHA256SUMS
fi
cat SHA256SUMS
