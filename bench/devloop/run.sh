#!/bin/sh
# Measures the widgetd dev edit loop (change-to-rebuilt time of the React
# example) and prints median and p95. Installs the example's npm packages
# first when they are missing.
set -eu
cd "$(dirname "$0")/../.."
[ -d widgets/node_modules/react ] || (cd widgets && npm ci)
exec go run ./bench/devloop "$@"
