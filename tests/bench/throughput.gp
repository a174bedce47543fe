# Throughput chart of the benchmark: gnuplot -e "datafile='...'; outfile='...'" throughput.gp
set terminal pngcairo noenhanced size 900,520 font "sans,11"
set output outfile
set title "MCP server throughput: C++ SDK vs TypeScript SDK (same machine, same run)"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.85 border -1
set boxwidth 0.9
set logscale y
set yrange [1:1e6]  # headroom above the bars for the key
set ylabel "requests per second (log scale)"
set grid ytics
set key top right
plot datafile using 2:xtic(1) title "C++ (mcp)" lc rgb "#1f77b4", \
     '' using 3 title "TypeScript (@modelcontextprotocol/sdk)" lc rgb "#ff7f0e", \
     '' using 4 title "a server that does no work (wrk's ceiling)" lc rgb "#999999"
