#!/usr/bin/env bash
# One shard of a cabra match (or selfplay) per Slurm array task.
#
#   OUT=/scratch/m1 SHARDS=8 sbatch --array=0-7 scripts/slurm/match-array.sh \
#       --a default --b 'gtp:/opt/old/cabra gtp' --games 2000 --time 100ms
#
# (scripts/slurm/submit.sh does this and queues the merge after it.) The
# match's options are the script's arguments (quoted as on a command
# line), or the words of MATCH_ARGS (no quoting there). Task ID plays
# `--shard ID/SHARDS` into $OUT/shard-$ID. Without SHARDS the array is
# the whole match: task ID - MIN of COUNT plays shard (ID-MIN)/COUNT, so
# --array=0-7 and --array=1-8 both give shards 0/8 to 7/8; with SHARDS
# (and for any rerun) the task IDs are the shards: --array=0-7.
#
# A task rerun plays only the games its folder does not hold yet: after
# `scontrol requeue`, or after a failure with the same OUT, SHARDS and
# options, e.g. `OUT=/scratch/m1 SHARDS=8 sbatch --array=3 ...` for
# shard 3/8 (SHARDS is needed: an array of one task is no whole match,
# and cabra refuses a folder of another shard). Environment:
#   OUT         the match's folder, shared by the tasks (required)
#   SHARDS      the number of shards (the array's task count by default)
#   MATCH_ARGS  the options of the match, when there are no arguments
#   MODE        match (default) or selfplay
#   THREADS     search threads per engine (default 1); a --threads among
#               the options overrides it (an option of the match given
#               twice counts its last value)
#   CABRA       the cabra program (default: cabra on the PATH)
#SBATCH --job-name=cabra-shard
#SBATCH --cpus-per-task=1
#SBATCH --mem=1G
set -euo pipefail
# Task ID is shard ID/SHARDS (a rerun of one task); without SHARDS the
# array is the whole work: task ID - MIN of COUNT. (Slurm runs a copy of
# this script, so it reads no file beside it.)
id=${SLURM_ARRAY_TASK_ID:?submit as an array job: sbatch --array=0-N}
if [[ -n ${SHARDS:-} ]]; then
    if ! [[ $SHARDS =~ ^[1-9][0-9]*$ ]]; then
        echo "SHARDS=$SHARDS is not a number of shards" >&2
        exit 2
    fi
    if ((id >= SHARDS)); then
        echo "task $id is no shard of SHARDS=$SHARDS: with SHARDS, task IDs are the shards, 0 to SHARDS-1 (--array=0-$((SHARDS - 1)))" >&2
        exit 2
    fi
    shard="$id/$SHARDS"
else
    count=${SLURM_ARRAY_TASK_COUNT:?submit as an array job: sbatch --array=0-N}
    shard="$((id - ${SLURM_ARRAY_TASK_MIN:-0}))/$count"
fi
: "${OUT:?set OUT to the match folder}"
if (($# == 0)); then
    read -r -a words <<<"${MATCH_ARGS:-}"
    set -- "${words[@]}"
fi
# The threads per engine: THREADS, or the last --threads of the options
# (which the match counts).
threads=${THREADS:-1}
prev=
for a in "$@"; do
    [[ $prev == --threads ]] && threads=$a
    [[ $a == --threads=* ]] && threads=${a#--threads=}
    prev=$a
done
[[ $threads =~ ^[1-9][0-9]*$ ]] || threads=1
cpus=${SLURM_CPUS_PER_TASK:-1}
# As many games at once as the task's cores hold engines thinking
# (in a game only the side to move thinks).
concurrency=$((cpus / threads > 0 ? cpus / threads : 1))
# Not --quiet: without a terminal the run logs a line a game, which the
# task's log (slurm-JOB_TASK.out) shows as it goes.
exec "${CABRA:-cabra}" "${MODE:-match}" --threads "$threads" \
    --concurrency "$concurrency" "$@" \
    --shard "$shard" --out "$OUT/shard-$id"
