#!/usr/bin/env bash
# The merge of a sharded cabra match (or selfplay): reads every
# $OUT/shard-*/results.jsonl and writes the summary of the whole match to
# $OUT/summary.txt and $OUT/summary.json (selfplay: summary.txt only).
# submit.sh queues it after the array with --dependency=afterok.
# Environment: OUT, MODE and CABRA as for match-array.sh; MERGE_ARGS, e.g.
# "--sprt 0,5" for a sequential test of the merged games.
#SBATCH --job-name=cabra-merge
#SBATCH --cpus-per-task=1
#SBATCH --mem=256M
set -euo pipefail
: "${OUT:?set OUT to the match folder}"
cabra=${CABRA:-cabra}
mode=${MODE:-match}
read -r -a args <<<"${MERGE_ARGS:-}"
shopt -s nullglob
shards=("$OUT"/shard-*)
((${#shards[@]} > 0)) || { echo "no $OUT/shard-* folder" >&2; exit 1; }
"$cabra" "$mode" --merge "${shards[@]}" "${args[@]}" >"$OUT/summary.txt"
if [[ $mode == match ]]; then
    "$cabra" match --merge "${shards[@]}" "${args[@]}" --json >"$OUT/summary.json"
fi
cat "$OUT/summary.txt"
