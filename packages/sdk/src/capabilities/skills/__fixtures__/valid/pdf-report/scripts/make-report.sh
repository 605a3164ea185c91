#!/bin/sh
# Builds /work/report.txt from the notes file given as $1. Leaves a marker proving it ran.
set -eu
notes="$1"
lines=$(wc -l < "$notes" | tr -d ' ')
{
  echo "REPORT: $lines lines of notes"
  sed 's/^/* /' "$notes"
} > /work/report.txt
date +%s > /work/.make-report-ran
head -n 1 /work/report.txt
