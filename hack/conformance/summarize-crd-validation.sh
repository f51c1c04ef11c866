#!/usr/bin/env bash
# Reads codegen's output and prints one line per CRD validation error:
# "<count> <Go position> <CRD> (<variants>)", sorted. hack/conformance.sh
# compares it with crd-validation-1.37.txt.
set -euo pipefail
grep '^error: ' | grep -E ' [a-z0-9]+\.[a-z0-9.]+ v[0-9a-z]+ ' | while IFS= read -r line; do
  pos=$(printf '%s' "$line" | sed -E 's/^error: ([^:]+:[0-9]+): .*/\1/')
  crd=$(printf '%s' "$line" | grep -oE ': [a-z0-9]+\.[a-z0-9.]+ v[0-9a-z]+ ' | head -1 | sed -E 's/^: //; s/ v[0-9a-z]+ $//')
  variants=$(printf '%s' "$line" | grep -oE '\(FeatureSet [^)]*\)' | head -1)
  echo "$pos $crd $variants"
done | LC_ALL=C sort | uniq -c | sed -E 's/^ +//'
