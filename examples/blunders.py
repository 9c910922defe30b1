#!/usr/bin/env python3
"""Print the blunders in a folder of Caminos games, with `cabra analysis`.

    python3 examples/blunders.py games/
    python3 examples/blunders.py DIR --cabra path/to/cabra --iterations 50k

Without --cabra it runs the `cabra` on PATH, else the one built in this
repository (target/release/cabra).

Every .caminos file of the folder becomes one query (all its turns); the
queries run at once on the cores, and the answers, which come back in any
order, are matched to their game by id. As `cabra analyze` does, a
placement is judged against the engine's own choice by searching the
position after each (a second round of queries), so that a search's
optimism for the side to move cancels out. A blunder drops the mover's win
probability by at least --threshold (0.20), or throws away a proven win.
"""

import argparse
import json
import pathlib
import shutil
import subprocess
import sys
import threading

# This repository's release build, when no `cabra` is on PATH.
BUILT = pathlib.Path(__file__).resolve().parent.parent / "target" / "release" / "cabra"


def find_cabra(given):
    """The program to run: --cabra, else `cabra` on PATH, else this repository's build."""
    if given:
        return given
    on_path = shutil.which("cabra")
    if on_path:
        return on_path
    if BUILT.is_file():
        return str(BUILT)
    sys.exit(
        "no cabra program: none on PATH and none built here "
        f"({BUILT}); install it (cargo install --path .), build it "
        "(cargo build --release) or pass --cabra PATH"
    )


def analyze(cabra, queries):
    """Runs the queries through one `cabra analysis`; {id: [answers]}."""
    engine = subprocess.Popen(
        [cabra, "analysis", "--threads", "1", "--seed", "1"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    # Written from a thread while the answers are read here: however many
    # queries there are, neither side waits for the other.
    def write():
        for q in queries:
            engine.stdin.write(json.dumps(q) + "\n")
        engine.stdin.close()

    writer = threading.Thread(target=write)
    writer.start()
    answers = {}
    for line in engine.stdout:
        a = json.loads(line)
        if "error" in a:
            print(f"query {a['id']}: {a['error']}", file=sys.stderr)
            continue
        answers.setdefault(a["id"], []).append(a)
    writer.join()
    if engine.wait() != 0:
        sys.exit("cabra analysis failed")
    return answers


def value_for(answer, mover):
    """The mover's win probability at the position of `answer`."""
    if answer["result"] == "draw":
        return 0.5
    if answer["result"] != "ongoing":
        return 1.0 if answer["result"] == f"p{mover}" else 0.0
    if answer["to_move"] == mover:  # after a time machine the mover goes on
        return answer["winrate"]
    return 1.0 - answer["winrate"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("folder", help="a folder of .caminos games")
    ap.add_argument(
        "--cabra", help="the cabra program (default: cabra on PATH, else target/release/cabra)"
    )
    ap.add_argument("--iterations", default="20k", help="iterations per position")
    ap.add_argument("--threshold", type=float, default=0.20, help="loss that makes a blunder")
    args = ap.parse_args()

    games = sorted(pathlib.Path(args.folder).glob("*.caminos"))
    if not games:
        sys.exit(f"no .caminos files in {args.folder}")
    cabra = find_cabra(args.cabra)
    limit = {"iterations": args.iterations}

    # Round 1: every position of every game.
    first = analyze(
        cabra,
        [{"id": i, "game": g.read_text(), "turns": "all", **limit} for i, g in enumerate(games)],
    )
    turns = {i: {a["turn"]: a for a in first.get(i, [])} for i in range(len(games))}

    # Round 2: the position after the engine's choice, where the game
    # played something else.
    second_queries = []
    for i, by_turn in turns.items():
        played = [by_turn[t]["played"] for t in sorted(by_turn) if by_turn[t]["played"]]
        for t, a in by_turn.items():
            if a["played"] and a["best"] and a["played"] != a["best"]:
                second_queries.append(
                    {"id": f"{i}:{t}", "rules": a["rules"], "moves": played[:t] + [a["best"]], **limit}
                )
    second = analyze(cabra, second_queries)

    for i, path in enumerate(games):
        by_turn = turns[i]
        found = []
        for t in sorted(by_turn):
            a, b = by_turn[t], by_turn.get(t + 1)
            if not a["played"] or b is None or a["played"] == a["best"]:
                continue
            mover = a["to_move"]
            after = value_for(b, mover)
            before = value_for(second[f"{i}:{t}"][0], mover)
            kept = b["result"] == f"p{mover}" or (b["to_move"] != mover and b["proven"] == "loss")
            if before - after >= args.threshold or (a["proven"] == "win" and not kept):
                found.append((t, mover, a["played"], a["best"], before, after))
        print(f"{path}: {len(found)} blunder{'' if len(found) == 1 else 's'}")
        for t, mover, played, best, before, after in found:
            print(
                f"  move {t + 1}, player {mover}: {played} (best {best}): "
                f"{100 * before:.0f}% -> {100 * after:.0f}%"
            )


if __name__ == "__main__":
    main()
