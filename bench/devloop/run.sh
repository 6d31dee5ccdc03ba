#!/bin/sh
# Measures the widgetd dev edit loop (change-to-rebuilt time of the React
# example) and prints median and p95. Installs the example's npm packages
# first when they are missing.
set -eu
cd "$(dirname "$0")/../.."
[ -d widgets/node_modules/react ] || (cd widgets && npm ci)
go run ./bench/devloop "$@"
# Dev at scale (issue 14): one widget edited in generated projects of 3 and
# 200 widgets; prints the ratio.
go run ./bench/devloop -scale 3,200 -edits 20
