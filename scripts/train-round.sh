#!/usr/bin/env bash
# One round of the training loop of docs/TRAINING.md, one command a step:
#
#   train-round.sh selfplay DIR [SELFPLAY OPTIONS]  games into DIR/selfplay/shard-0
#   train-round.sh train DIR [TRAIN OPTIONS]        DIR/value.bin from DIR/selfplay/shard-*
#   train-round.sh gate DIR [MATCH OPTIONS]         the new weights against FROM's
#   train-round.sh ship DIR                         a passed gate's weights to DEST
#
# Environment:
#   CABRA      the program (default: cabra on the PATH)
#   FROM       the weights the round starts from: builtin (the default) or a file
#   MIN_SCORE  the score the new weights need in the gate (default 0.55)
#   DEST       where ship copies them (default: weights/value.bin of this
#              checkout; a rebuild builds them in)
#
# On a cluster the selfplay step is the Slurm array of docs/CLUSTER.md,
# into the same folder: MODE=selfplay scripts/slurm/submit.sh DIR/selfplay
# SHARDS --engine "default,weights=FROM" ...; train then reads every shard.
set -euo pipefail

usage() {
    sed -n '2,7p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 2
}

[[ $# -ge 2 ]] || usage
step=$1
dir=$2
shift 2
cabra=${CABRA:-cabra}
from=${FROM:-builtin}
min_score=${MIN_SCORE:-0.55}
here="$(cd "$(dirname "$0")" && pwd)"
[[ $min_score =~ ^[0-9]*\.?[0-9]+$ ]] || {
    echo "train-round: MIN_SCORE=$min_score is not a score (a number such as 0.55)" >&2
    exit 2
}

# The options a step sets itself: given again, the last would win and
# the step would not do what it says (train into another file, gate
# other weights), so they are refused.
refuse() {
    local arg opt
    for arg in "${args[@]}"; do
        for opt in "$@"; do
            if [[ $arg == "$opt" || $arg == "$opt="* ]]; then
                echo "train-round: the $step step sets $opt itself (see the script's header)" >&2
                exit 2
            fi
        done
    done
}
args=("$@")

# The weights' checksum, which a passed gate records and ship checks.
checksum() {
    sha256sum "$1" | cut -d' ' -f1
}
dest=${DEST:-$here/../weights/value.bin}

case $step in
selfplay)
    refuse --engine --out --shard
    mkdir -p "$dir/selfplay"
    "$cabra" selfplay --engine "default,weights=$from" --shard 0/1 \
        --out "$dir/selfplay/shard-0" "$@"
    ;;
train)
    refuse --data --from --out --force
    shards=("$dir"/selfplay/shard-*)
    [[ -e ${shards[0]} ]] || {
        echo "train-round: no self-play in $dir/selfplay (run the selfplay step first)" >&2
        exit 1
    }
    # New weights have not been gated.
    rm -f "$dir/gate.passed" "$dir/gate.failed"
    "$cabra" train --data "${shards[@]}" --from "$from" --out "$dir/value.bin" --force "$@"
    ;;
gate)
    refuse --a --b --out --json --force
    [[ -f $dir/value.bin ]] || {
        echo "train-round: no $dir/value.bin (run the train step first)" >&2
        exit 1
    }
    rm -f "$dir/gate.passed" "$dir/gate.failed"
    sum=$(checksum "$dir/value.bin")
    "$cabra" match --a "default,weights=$dir/value.bin" --b "default,weights=$from" \
        --json --out "$dir/gate" --force "$@" >"$dir/gate.json"
    score=$(sed -n 's/.*"score":\([-0-9.eE+]*\).*/\1/p' "$dir/gate.json")
    [[ -n $score ]] || {
        echo "train-round: no score in $dir/gate.json" >&2
        exit 1
    }
    if awk -v s="$score" -v m="$min_score" 'BEGIN { exit !(s >= m) }'; then
        echo "gate passed: score $score against $from (at least $min_score needed)"
        printf 'score %s against %s\nweights sha256 %s\n' "$score" "$from" "$sum" >"$dir/gate.passed"
    else
        echo "gate failed: score $score against $from (at least $min_score needed)" |
            tee "$dir/gate.failed"
        exit 1
    fi
    ;;
ship)
    [[ -f $dir/gate.passed ]] || {
        echo "train-round: $dir has no passed gate (run the gate step first)" >&2
        exit 1
    }
    [[ $# -eq 0 ]] || usage
    # Only the weights that passed: not ones trained again after the gate.
    grep -qx "weights sha256 $(checksum "$dir/value.bin")" "$dir/gate.passed" || {
        echo "train-round: $dir/value.bin is not the file that passed the gate (run the gate step again)" >&2
        exit 1
    }
    # Written beside the old file, then renamed: an interrupted copy never
    # leaves a damaged file in its place.
    cp "$dir/value.bin" "$dest.tmp.$$"
    mv "$dest.tmp.$$" "$dest"
    echo "shipped $dir/value.bin to $dest: rebuild to build it in"
    ;;
*)
    usage
    ;;
esac
