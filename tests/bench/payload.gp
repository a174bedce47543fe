# Payload-size chart of the benchmark: gnuplot -e "datafile='...'; outfile='...'" payload.gp
# datafile (mcp_bench report --payload-plot): N, then calls/s of order, order_rt, list for
# stdio ours (2-4), stdio TypeScript (5-7), HTTP ours (8-10), HTTP TypeScript (11-13).
set terminal pngcairo noenhanced size 1200,520 font "sans,10"
set output outfile
set datafile missing "NaN"
set logscale xy
set xlabel "N (order: items in the arguments; list: records in the result)"
set ylabel "calls per second (log scale)"
set grid xtics ytics mxtics mytics
set key top right
set style line 1 lc rgb "#1f77b4" lw 2 pt 7 dt 1
set style line 2 lc rgb "#2ca02c" lw 2 pt 5 dt 1
set style line 3 lc rgb "#9467bd" lw 2 pt 9 dt 1
set style line 4 lc rgb "#1f77b4" lw 2 pt 6 dt 2
set style line 5 lc rgb "#2ca02c" lw 2 pt 4 dt 2
set style line 6 lc rgb "#9467bd" lw 2 pt 8 dt 2
set multiplot layout 1,2 title "Payload size: C++ SDK (solid) vs TypeScript SDK (dashed), same machine, same run"
set title "stdio, pipelined"
plot datafile using 1:2 with linespoints ls 1 title "C++ order", \
     '' using 1:3 with linespoints ls 2 title "C++ order_rt (run-time schema)", \
     '' using 1:4 with linespoints ls 3 title "C++ list", \
     '' using 1:5 with linespoints ls 4 title "TS order", \
     '' using 1:6 with linespoints ls 5 title "TS order_rt", \
     '' using 1:7 with linespoints ls 6 title "TS list"
set title "Streamable HTTP (wrk, one session)"
plot datafile using 1:8 with linespoints ls 1 title "C++ order", \
     '' using 1:9 with linespoints ls 2 title "C++ order_rt (run-time schema)", \
     '' using 1:10 with linespoints ls 3 title "C++ list", \
     '' using 1:11 with linespoints ls 4 title "TS order", \
     '' using 1:12 with linespoints ls 5 title "TS order_rt", \
     '' using 1:13 with linespoints ls 6 title "TS list"
unset multiplot
