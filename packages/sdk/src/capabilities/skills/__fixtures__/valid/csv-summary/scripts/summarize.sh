#!/bin/sh
set -eu
echo "rows: $(($(wc -l < "$1") - 1))"
echo "columns: $(head -n 1 "$1")"
