#!/bin/sh
# widgetd vs Vite 8 on generated projects of 1, 10, 50, 200 and 500 widgets;
# writes bench/out/scale.svg and bench/out/scale.json. SCALE_ARGS adds flags,
# e.g. SCALE_ARGS="-vite-max 200 -runs 1".
set -eu
cd "$(dirname "$0")/../.."
[ -d widgets/node_modules/react ] || (cd widgets && npm ci)
[ -d bench/vite/node_modules/vite ] || (cd bench/vite && npm ci)
# shellcheck disable=SC2086
exec go run ./bench/scale ${SCALE_ARGS:-}
