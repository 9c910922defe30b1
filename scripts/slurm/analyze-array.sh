#!/usr/bin/env bash
# One shard of the analysis of a collection of games per Slurm array task.
#
#   OUT=/scratch/a ANALYZE_ARGS="games/ --iterations 20000" \
#       sbatch --array=0-7 scripts/slurm/analyze-array.sh
#   # then: cabra analyze --merge /scratch/a/shard-*
#
# Task ID - MIN of COUNT analyzes `--shard (ID-MIN)/COUNT` (games i with
# i mod COUNT = ID-MIN, in the collection sorted by file name) into
# $OUT/shard-$ID. A task rerun (after a failure, or `scontrol requeue`)
# analyzes only the games its folder does not hold yet. Environment:
#   OUT           the analysis's folder, shared by the tasks (required)
#   ANALYZE_ARGS  the games (files, folders) and options, the same for
#                 every task (no spaces inside a path)
#   THREADS       search threads (default 1: reproducible analyses)
#   CABRA         the cabra program (default: cabra on the PATH)
#SBATCH --job-name=cabra-analyze
#SBATCH --cpus-per-task=1
#SBATCH --mem=1G
set -euo pipefail
: "${OUT:?set OUT to the analysis folder}"
: "${ANALYZE_ARGS:?set ANALYZE_ARGS to the games and the options}"
id=${SLURM_ARRAY_TASK_ID:?submit as an array job: sbatch --array=0-N}
count=${SLURM_ARRAY_TASK_COUNT:?submit as an array job: sbatch --array=0-N}
min=${SLURM_ARRAY_TASK_MIN:-0}
read -r -a args <<<"$ANALYZE_ARGS"
exec "${CABRA:-cabra}" analyze "${args[@]}" --threads "${THREADS:-1}" \
    --shard "$((id - min))/$count" --out "$OUT/shard-$id"
