#!/usr/bin/env bash
# One shard of the analysis of a collection of games per Slurm array task.
#
#   OUT=/scratch/a SHARDS=8 sbatch --array=0-7 scripts/slurm/analyze-array.sh \
#       games/ --iterations 20000
#   # then: cabra analyze --merge /scratch/a/shard-*
#
# The games (files, folders) and options are the script's arguments
# (quoted as on a command line), or the words of ANALYZE_ARGS (no
# quoting there: no spaces inside a path). Task ID analyzes
# `--shard ID/SHARDS` (games i with i mod SHARDS = ID, in the collection
# sorted by file name) into $OUT/shard-$ID; without SHARDS the array is
# the whole analysis (task ID - MIN of COUNT). A task rerun (after a
# failure with the same OUT, SHARDS and arguments, e.g. `SHARDS=8 sbatch
# --array=3 ...`, or `scontrol requeue`) analyzes only the games its
# folder does not hold yet. Environment:
#   OUT           the analysis's folder, shared by the tasks (required)
#   SHARDS        the number of shards (the array's task count by default)
#   ANALYZE_ARGS  the games and the options, when there are no arguments
#   THREADS       search threads (default 1: reproducible analyses)
#   CABRA         the cabra program (default: cabra on the PATH)
#SBATCH --job-name=cabra-analyze
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
: "${OUT:?set OUT to the analysis folder}"
if (($# == 0)); then
    : "${ANALYZE_ARGS:?give the games and the options as arguments, or in ANALYZE_ARGS}"
    read -r -a words <<<"$ANALYZE_ARGS"
    set -- "${words[@]}"
fi
exec "${CABRA:-cabra}" analyze --threads "${THREADS:-1}" "$@" \
    --shard "$shard" --out "$OUT/shard-$id"
