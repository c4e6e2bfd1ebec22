# gnuplot figures.gp (in examples/ring-iterations, after summary.py): the policies' total time over
# the offline optimum against the computation-to-communication ratio, window drift 0.25 processor per
# iteration, 64 processors.
set terminal svg size 900,420 font "sans,11"
set logscale x
set logscale y
set xlabel "computation-to-communication ratio (compute time / link time of one item)"
set ylabel "total time / offline optimum"
set key top left
do for [ring in "homogeneous heterogeneous"] {
  set output sprintf("../../docs/ring-iterations-%s.svg", ring)
  set title sprintf("%s ring, 64 processors, window drift 0.25 processor / iteration, 100 iterations", ring)
  f = sprintf("figure-%s-64-0.25.dat", ring)
  plot f u 1:2 w lp t "never", f u 1:3 w lp t "every iteration", f u 1:4 w lp t "best every:K", \
       f u 1:5 w lp lw 2 t "model", f u 1:6 w lp t "threshold 1.2"
}
