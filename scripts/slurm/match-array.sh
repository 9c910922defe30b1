#!/usr/bin/env bash
# One shard of a cabra match (or selfplay) per Slurm array task.
#
#   OUT=/scratch/m1 MATCH_ARGS="--a default --b baseline --games 2000 --time 100ms" \
#       sbatch --array=0-7 scripts/slurm/match-array.sh
#
# (scripts/slurm/submit.sh does this and queues the merge after it.) Task
# ID - MIN of COUNT plays `--shard (ID-MIN)/COUNT` into $OUT/shard-$ID, so
# --array=0-7 and --array=1-8 both give shards 0/8 to 7/8. A task rerun
# (after a failure, or `scontrol requeue`) plays only the games its folder
# does not hold yet. Environment:
#   OUT         the match's folder, shared by the tasks (required)
#   MATCH_ARGS  the options of the match, the same for every task
#   MODE        match (default) or selfplay
#   THREADS     search threads per engine (default 1)
#   CABRA       the cabra program (default: cabra on the PATH)
#SBATCH --job-name=cabra-shard
#SBATCH --cpus-per-task=1
#SBATCH --mem=1G
set -euo pipefail
: "${OUT:?set OUT to the match folder}"
id=${SLURM_ARRAY_TASK_ID:?submit as an array job: sbatch --array=0-N}
count=${SLURM_ARRAY_TASK_COUNT:?submit as an array job: sbatch --array=0-N}
min=${SLURM_ARRAY_TASK_MIN:-0}
threads=${THREADS:-1}
cpus=${SLURM_CPUS_PER_TASK:-1}
# As many games at once as the task's cores hold engines thinking
# (in a game only the side to move thinks).
concurrency=$((cpus / threads > 0 ? cpus / threads : 1))
read -r -a args <<<"${MATCH_ARGS:-}"
exec "${CABRA:-cabra}" "${MODE:-match}" "${args[@]}" --threads "$threads" \
    --concurrency "$concurrency" --quiet \
    --shard "$((id - min))/$count" --out "$OUT/shard-$id"
