# The dynamic comparison's rows (docs/peers.md, "Dynamic"), sourced by compare_dynamic.sh and
# compare_builds.sh: each function sets the variables of one dimension of a row, or prints one line on
# stderr naming the value and what was expected and exits 2. $WHO names the calling script.

# The rows and repetitions, unless set: REPS runs of WORK iterations, LOAD items per rank.
REPS=${REPS:-5}
WORK=${WORK:-60}
LOAD=${LOAD:-20}
RANKS=${RANKS:-"8 16"}
RATIOS=${RATIOS:-"compute short transfer"}
SCENARIOS=${SCENARIOS:-"steady peak slowdown"}

# Ranks 8 or 16: speeds (fastest first) and their sum.
row_ranks() {
  case $1 in
    8) speeds=6,5,4,3,2,2,1,1 sum=24 ;;
    16) speeds=6,6,5,5,4,4,3,3,2,2,2,2,1,1,1,1 sum=48 ;;
    *) echo "$WHO: RANKS: $1: expected 8 or 16" >&2; exit 2 ;;
  esac
}

# The ratio label: ms of computing per item at speed 1 and the item's bytes.
row_ratio() {
  case $1 in
    compute) ratio=1 bytes=1024 ;;
    short) ratio=0.1 bytes=65536 ;;
    transfer) ratio=0.1 bytes=1048576 ;;
    *) echo "$WHO: RATIOS: $1: expected compute, short or transfer" >&2; exit 2 ;;
  esac
}

# The scenario ($1), given the balanced run's length WORK x items x ms per item / sum of speeds (from
# $WORK, $LOAD, $np, $ratio, $sum): the --slowdown option, or none.
row_scenario() {
  balanced=$(awk -v w="$WORK" -v l="$LOAD" -v p="$np" -v r="$ratio" -v s="$sum" 'BEGIN { print w * l * p * r * 1e-3 / s }')
  case $1 in
    steady) slow="" ;;
    peak) slow="--slowdown 0:3:$(awk -v t="$balanced" 'BEGIN { printf "%g:%g", t / 3, 2 * t / 3 }')" ;;
    slowdown) slow="--slowdown 0:3:$(awk -v t="$balanced" 'BEGIN { printf "%g:1e6", t / 2 }')" ;;
    *) echo "$WHO: SCENARIOS: $1: expected steady, peak or slowdown" >&2; exit 2 ;;
  esac
}
