#!/usr/bin/env bash
# A sharded match on a real single-node Slurm: installs slurm-wlm and munge
# if missing (apt), starts munged, slurmctld and slurmd with a
# configuration of its own (its own ports, state and spool folders under a
# temporary folder; /etc/slurm is left alone), submits a small match as a
# job array of 4 shards and the merge after it (scripts/slurm/submit.sh),
# and checks that the merged summary and every game's placements equal
# the same match played in one process. It stops the daemons it started,
# by their PIDs, whatever happens. Needs root. About a minute.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$(pwd)
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$root/target}
cabra=${CABRA:-$CARGO_TARGET_DIR/release/cabra}
[[ -x $cabra ]] || cargo build --release --bin cabra
cabra=$(cd "$(dirname "$cabra")" && pwd)/$(basename "$cabra")
[[ $(id -u) == 0 ]] || { echo "slurm-test: needs root (it starts daemons)" >&2; exit 1; }
if ! command -v slurmctld >/dev/null || ! command -v munged >/dev/null; then
    apt-get update -q
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q slurm-wlm munge
fi

work=$(mktemp -d /tmp/cabra-slurm.XXXXXX)
chmod 755 "$work"
started=()
stop_daemons() {
    local pid
    for pid in "${started[@]}"; do
        kill "$pid" 2>/dev/null || true
    done
    for pid in "${started[@]}"; do
        for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    done
    if [[ ${KEEP:-} != 1 ]]; then rm -rf "$work"; fi
}
trap stop_daemons EXIT

# munge: reuse a running munged, else start one and remember its PID.
if ! munge -n 2>/dev/null | unmunge >/dev/null 2>&1; then
    mkdir -p /run/munge
    chown -R munge:munge /run/munge /etc/munge
    su -s /bin/sh munge -c /usr/sbin/munged
    for _ in $(seq 50); do [[ -s /run/munge/munged.pid ]] && break; sleep 0.1; done
    started+=("$(cat /run/munge/munged.pid)")
    munge -n | unmunge | grep -q Success
fi

node=$(hostname -s)
cpus=$(nproc)
# The node's memory in MB (less some for the system), so that the jobs'
# --mem can be met.
memory=$(($(awk '/^MemTotal/ {print $2}' /proc/meminfo) / 1024 - 512))
mkdir -p "$work/state" "$work/spool"
export SLURM_CONF=$work/slurm.conf
cat >"$SLURM_CONF" <<CONF
ClusterName=cabratest
SlurmctldHost=$node
SlurmctldPort=${SLURMCTLD_PORT:-16817}
SlurmdPort=${SLURMD_PORT:-16818}
SlurmUser=root
AuthType=auth/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/slurmctld.log
SlurmdLogFile=$work/slurmd.log
ReturnToService=2
MpiDefault=none
NodeName=$node CPUs=$cpus RealMemory=$memory State=UNKNOWN
PartitionName=test Nodes=$node Default=YES MaxTime=INFINITE State=UP
CONF
/usr/sbin/slurmctld -f "$SLURM_CONF"
for _ in $(seq 50); do [[ -s $work/slurmctld.pid ]] && break; sleep 0.1; done
started+=("$(cat "$work/slurmctld.pid")")
/usr/sbin/slurmd -f "$SLURM_CONF"
for _ in $(seq 50); do [[ -s $work/slurmd.pid ]] && break; sleep 0.1; done
started+=("$(cat "$work/slurmd.pid")")
for i in $(seq 60); do
    sinfo -h -o %T 2>/dev/null | grep -qx idle && break
    ((i < 60)) || { echo "slurm-test: the node never became idle" >&2; cat "$work"/*.log >&2; exit 1; }
    sleep 1
done

# The match: 8 games at 200 iterations, one thread: reproducible. B's
# configuration holds a space, which must reach every task as one word.
match=(--a default --b "default, c=0.5" --games 8 --iterations 200 --seed 3)
read -r array merge < <(CABRA=$cabra THREADS=1 scripts/slurm/submit.sh "$work/sharded" 4 "${match[@]}")
echo "slurm-test: array job $array, merge job $merge"
"$cabra" match "${match[@]}" --threads 1 --quiet --json --out "$work/one" >"$work/one.json"
for i in $(seq 180); do
    [[ -z $(squeue -h -j "$array,$merge" 2>/dev/null) ]] && break
    if squeue -h -j "$merge" -o %r 2>/dev/null | grep -q DependencyNeverSatisfied; then
        echo "slurm-test: a shard failed" >&2; cat "$work"/sharded/logs/*.log >&2; exit 1
    fi
    ((i < 180)) || { echo "slurm-test: the jobs did not end in 3 minutes" >&2; squeue >&2; exit 1; }
    sleep 1
done
[[ -s $work/sharded/summary.json ]] || {
    echo "slurm-test: no merged summary" >&2; cat "$work"/sharded/logs/*.log >&2; exit 1
}
cat "$work/sharded/summary.txt"
keys='[.games, .wins, .draws, .losses, .score, .elo, .elo_low, .elo_high, .model, .average_length]'
one=$(jq -c "$keys" "$work/one.json")
merged=$(jq -c "$keys" "$work/sharded/summary.json")
[[ $one == "$merged" ]] || { echo "slurm-test: merged $merged, one process $one" >&2; exit 1; }
[[ $(jq -c .merged.missing "$work/sharded/summary.json") == "[]" ]]
games_one=$(cd "$work/one" && for f in game-*.caminos; do echo "== $f"; grep -v '^#' "$f"; done)
games_sharded=$(cd "$work/sharded" && for f in $(printf '%s\n' shard-*/game-*.caminos | sort -t/ -k2); do
    echo "== ${f#*/}"; grep -v '^#' "$f"; done)
one_files=("$work"/one/game-*.caminos)
[[ ${#one_files[@]} == 8 ]]
[[ $games_one == "$games_sharded" ]] || {
    echo "slurm-test: the sharded games differ from the one-process games" >&2
    diff <(echo "$games_one") <(echo "$games_sharded") >&2 || true
    exit 1
}

# A task rerun alone, as docs/CLUSTER.md says after a failure: shard 2's
# folder lost, `SHARDS=4 sbatch --array=2` plays shard 2/4 again.
rm -r "$work/sharded/shard-2"
OUT=$work/sharded SHARDS=4 CABRA=$cabra THREADS=1 timeout 180 sbatch --wait --array=2 \
    --output="$work/sharded/logs/rerun-%a.log" scripts/slurm/match-array.sh "${match[@]}" >/dev/null || {
    echo "slurm-test: the rerun of task 2 failed" >&2; cat "$work"/sharded/logs/rerun-*.log >&2; exit 1
}
grep -q '"shard":"2/4"' "$work/sharded/shard-2/results.jsonl" || {
    echo "slurm-test: the rerun did not play shard 2/4" >&2; exit 1
}
rerun=$("$cabra" match --merge "$work"/sharded/shard-* --json | jq -c "$keys")
[[ $rerun == "$one" ]] || { echo "slurm-test: after the rerun $rerun, one process $one" >&2; exit 1; }
echo "slurm-test: ok: 4 shards on Slurm merged = one process ($merged), 8 games identical; task 2 rerun alone"

# A round of the training loop whose self-play is a Slurm array, as
# docs/TRAINING.md says: then train-round.sh trains on its shards.
round=$work/round
read -r array merge < <(MODE=selfplay CABRA=$cabra THREADS=1 scripts/slurm/submit.sh \
    "$round/selfplay" 2 --engine "default,weights=builtin" --games 4 --iterations 50 --seed 5)
for i in $(seq 180); do
    [[ -z $(squeue -h -j "$array,$merge" 2>/dev/null) ]] && break
    ((i < 180)) || { echo "slurm-test: the self-play did not end in 3 minutes" >&2; squeue >&2; exit 1; }
    sleep 1
done
grep -q "4 games" "$round/selfplay/summary.txt" || {
    echo "slurm-test: the self-play shards do not hold 4 games" >&2
    cat "$round"/selfplay/summary.txt "$round"/selfplay/logs/*.log >&2; exit 1
}
trained=$(CABRA=$cabra scripts/train-round.sh train "$round" --epochs 1)
grep -q "^4 games to learn from" <<<"$trained" && [[ -s $round/value.bin ]] || {
    echo "slurm-test: training on the Slurm self-play failed: $trained" >&2; exit 1
}
echo "slurm-test: ok: a self-play round of 2 shards on Slurm, trained on: ${trained##*$'\n'}"
