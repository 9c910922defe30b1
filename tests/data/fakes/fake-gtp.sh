#!/bin/sh
# A deliberately broken GTP program for the tests of `cabra match`. It
# answers every command properly but `genmove`, which it breaks as MODE
# says:
#   crash    exits with status 3
#   illegal  answers the opponent's last placement (a cube already taken)
#   silent   never answers
#   garbage  answers a line that is not a GTP answer
#   flood    starts an answer and never ends it (endless output)
#   lines    refuses in two lines, the second a placement
mode=$1
last=""
while IFS= read -r line; do
  set -f
  # shellcheck disable=SC2086
  set -- $line
  id=""
  case $1 in [0-9]*) id=$1; shift ;; esac
  cmd=$1
  [ $# -gt 0 ] && shift
  case $cmd in
    protocol_version) printf '=%s 2\n\n' "$id" ;;
    known_command) printf '=%s false\n\n' "$id" ;;
    play) shift; last="$*"; printf '=%s \n\n' "$id" ;;
    genmove)
      case $mode in
        crash) echo "fake: crashing on purpose" >&2; exit 3 ;;
        illegal) printf '=%s %s\n\n' "$id" "$last" ;;
        silent) ;;
        garbage) printf 'hello, this is not GTP\n\n' ;;
        flood) printf '=%s L T0 000\n' "$id"; exec yes flood ;;
        lines) printf '?%s cannot move\nL T0 000\n\n' "$id" ;;
      esac ;;
    quit) printf '=%s \n\n' "$id"; exit 0 ;;
    *) printf '=%s \n\n' "$id" ;;
  esac
done
