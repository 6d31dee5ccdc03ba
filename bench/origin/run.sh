#!/bin/sh
# Origin benchmark: widgetd serve vs nginx (brotli_static/gzip_static) on the
# same external-mode build of the example widgets, or the soak with -soak 5m.
# Installs the example's npm packages first when they are missing.
# Needs: apt-get install -y wrk nginx libnginx-mod-http-brotli-static
set -eu
cd "$(dirname "$0")/../.."
[ -d widgets/node_modules/react ] || (cd widgets && npm ci)
exec go run ./bench/origin "$@"
