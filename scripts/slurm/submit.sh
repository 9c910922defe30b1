#!/usr/bin/env bash
# Submits a sharded cabra match (or selfplay) to Slurm: a job array of
# SHARDS tasks, then the merge, which starts once every task has ended
# well (--dependency=afterok). Prints the two job IDs.
#
#   scripts/slurm/submit.sh OUT SHARDS [MATCH OPTIONS...]
#   scripts/slurm/submit.sh /scratch/m1 8 --a default --b baseline --games 2000 --time 100ms
#
# A task that failed is rerun with `OUT=OUT SHARDS=SHARDS sbatch --array=ID
# scripts/slurm/match-array.sh [MATCH OPTIONS...]`.
#
# Environment: MODE (match or selfplay), THREADS, CABRA as for
# match-array.sh; MERGE_ARGS for merge.sh; SBATCH_ARGS, extra sbatch
# options for both jobs (e.g. "--partition=long --time=2:00:00").
set -euo pipefail
if (($# < 2)) || ! [[ $2 =~ ^[1-9][0-9]*$ ]]; then
    echo "usage: $0 OUT SHARDS [MATCH OPTIONS...]" >&2
    exit 2
fi
here=$(cd "$(dirname "$0")" && pwd)
out=$1 shards=$2
shift 2
mkdir -p "$out/logs"
out=$(cd "$out" && pwd)
# The options go to the tasks as arguments, so their quoting holds
# (`--b 'gtp:/opt/old/cabra gtp'`).
export OUT=$out SHARDS=$shards
read -r -a extra <<<"${SBATCH_ARGS:-}"
array=$(sbatch --parsable "${extra[@]}" --array="0-$((shards - 1))" \
    --cpus-per-task="${THREADS:-1}" --output="$out/logs/shard-%a.log" \
    "$here/match-array.sh" "$@")
array=${array%%;*}
merge=$(sbatch --parsable "${extra[@]}" --dependency="afterok:$array" \
    --output="$out/logs/merge.log" "$here/merge.sh")
merge=${merge%%;*}
echo "$array $merge"
