#!/bin/sh
# Codec benchmark (issue 17), instruction counts under callgrind on the
# scheduler_perf shape (bench_schedule --emit: 500 nodes x 10 devices, 5,000
# pods with a template claim): each codec step next to libyaml's and
# jansson's own cost on the same text, from one run of bench_codec (see
# bench_codec.c), then the whole commands `dra validate -f in.yaml` and
# `dra schedule -f in.yaml -o json`.
# usage: sh bench/codec.sh [build-dir]
set -e
build=${1:-build}
if ! command -v valgrind >/dev/null 2>&1; then
  echo "codec: valgrind not installed, skipped"
  exit 77
fi
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
"$build/bench_schedule" --emit >"$dir/in.yaml"

total() { callgrind_annotate "$1" 2>/dev/null | awk '/PROGRAM TOTALS/ {gsub(",", "", $1); print $1}'; }
inclusive() { callgrind_annotate --inclusive=yes "$1" 2>/dev/null | awk -v f=":$2 " 'index($0, f) {gsub(",", "", $1); print $1; exit}'; }
size() { awk -v k="$1" '$1 == k {print $2}' "$dir/sizes"; }
row() { awk -v what="$1" -v ir="$2" -v n="$3" -v unit="$4" 'BEGIN {printf "%-44s %14d  %8.1f per %s\n", what, ir, ir / n, unit}'; }

valgrind --tool=callgrind --callgrind-out-file="$dir/codec.out" "$build/bench_codec" "$dir/in.yaml" "$dir/in.json" >"$dir/sizes" 2>"$dir/log"
yaml=$(size yaml_bytes)
json=$(size json_bytes)
output=$(size output_bytes)
echo "input: $yaml bytes of YAML; the same as kubectl -o json: $json bytes; written back: $output bytes"
row "YAML decode, direct" "$(inclusive "$dir/codec.out" measure_yaml_direct)" "$yaml" "YAML byte"
row "YAML decode, through the tree" "$(inclusive "$dir/codec.out" measure_yaml_tree)" "$yaml" "YAML byte"
row "libyaml alone (every event)" "$(inclusive "$dir/codec.out" measure_libyaml_events)" "$yaml" "YAML byte"
row "libyaml's scanner alone (every token)" "$(inclusive "$dir/codec.out" measure_libyaml_tokens)" "$yaml" "YAML byte"
[ "$(size fast_tokens)" != 0 ] || echo "codec: yaml_fast.c gave up on the input" >&2
row "dra's YAML reader alone (every token)" "$(inclusive "$dir/codec.out" measure_fast_tokens)" "$yaml" "YAML byte"
row "JSON decode, direct" "$(inclusive "$dir/codec.out" measure_json_direct)" "$json" "JSON byte"
row "JSON decode, through the tree" "$(inclusive "$dir/codec.out" measure_json_tree)" "$json" "JSON byte"
row "jansson alone (json_loadb)" "$(inclusive "$dir/codec.out" measure_jansson_load)" "$json" "JSON byte"
row "JSON encode (-o json), direct" "$(inclusive "$dir/codec.out" measure_encode_direct)" "$output" "output byte"
row "JSON encode (-o json), through the tree" "$(inclusive "$dir/codec.out" measure_encode_tree)" "$output" "output byte"
row "jansson alone (json_dumps, indent 4)" "$(inclusive "$dir/codec.out" measure_jansson_dump)" "$(size jansson_output_bytes)" "output byte"

now=2026-01-01T00:00:00Z
valgrind --tool=callgrind --callgrind-out-file="$dir/validate.out" "$build/dra" validate -f "$dir/in.yaml" >/dev/null 2>&1
valgrind --tool=callgrind --callgrind-out-file="$dir/validate_json.out" "$build/dra" validate -f "$dir/in.json" >/dev/null 2>&1
valgrind --tool=callgrind --callgrind-out-file="$dir/schedule.out" "$build/dra" schedule --now "$now" -f "$dir/in.yaml" -o json \
  >"$dir/out.json" 2>/dev/null
validate=$(total "$dir/validate.out")
schedule=$(total "$dir/schedule.out")
row "dra validate -f in.yaml (whole process)" "$validate" "$yaml" "YAML byte"
row "dra validate -f in.json (whole process)" "$(total "$dir/validate_json.out")" "$json" "JSON byte"
row "dra schedule -f in.yaml -o json, beyond it" "$((schedule - validate))" 5000 "pod"
