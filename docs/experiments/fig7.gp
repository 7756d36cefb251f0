set terminal pngcairo size 1400,520 font 'DejaVu Sans,8'
set output 'fig7.png'
set termoption noenhanced
set key font ',7' samplen 3
set grid
set xtics rotate by 30 right
set format y '%g'
$rt0 << EOD
100 0.000245888 2.6751e-05 2.344e-06 3.037e-06 2.0488e-05 7.003e-06 4.959e-06
1000 0.000899974 4.5647e-05 1.117e-05 8.536e-06 0.000164324 0.000116092 3.1039e-05
10000 0.0110421 0.000845651 0.000747855 0.000180032 0.0238771 0.0181352 0.000641212
50000 0.135066 0.0156619 0.0155571 0.00222673 1.23762 0.882374 0.00893247
EOD
$rt1 << EOD
100 0.000164694 2.136e-05 2.165e-06 2.955e-06 2.0108e-05 7.263e-06 6.372e-06
1000 0.000894634 5.1117e-05 1.5369e-05 1.0801e-05 0.000208626 0.000145277 5.3171e-05
10000 0.014163 0.0013119 0.00109227 0.000305182 0.0456279 0.0300063 0.00131872
50000 0.157456 0.0191446 0.0178504 0.0023353 1.7366 1.40896 0.0282355
EOD
$rt2 << EOD
1 0.000363251 4.9925e-05 1.4177e-05 7.694e-06 0.000174973 0.000158262 3.5167e-05
2 0.00034671 4.2893e-05 1.7383e-05 9.398e-06 0.00026279 0.000226131 4.0807e-05
3 0.000424037 3.148e-05 2.3144e-05 1.007e-05 0.000339016 0.000268461 3.9625e-05
4 0.000522015 4.8302e-05 2.4095e-05 1.0841e-05 0.00453168 0.000394031 4.1909e-05
5 0.0018021 7.85e-05 4.4295e-05 2.0168e-05 0.00120145 0.000481657 8.5974e-05
6 0.0038973 0.000159864 0.00012057 8.1315e-05 0.00843006 0.00141181 0.000241921
EOD
set key below maxrows 4
set multiplot layout 1,3 title 'Figure 7: runtime at eps 1, first release on a fresh graph (2 threads for the build); paper methods solid, dpq defaults dashed'
set title 'Tax, RNoise 0.005'
set xlabel 'rows (nodes)'
set logscale x
set logscale y
set ylabel 'seconds'
plot $rt0 u 1:2 w lp pt 5 ps 0.5 lc rgb '#000000' t 'graph build', $rt0 u 1:3 w lp pt 7 ps 0.5 dt 1 lw 1 lc rgb '#1f77b4' t 'I_MI optimized (paper)', $rt0 u 1:4 w lp pt 7 ps 0.5 dt 1 lw 1 lc rgb '#ff7f0e' t 'I_P optimized (paper)', $rt0 u 1:5 w lp pt 7 ps 0.5 dt 1 lw 1 lc rgb '#2ca02c' t 'I_R vertex_cover (paper)', $rt0 u 1:6 w lp pt 9 ps 0.5 dt 2 lw 2 lc rgb '#1f77b4' t 'I_MI gem (dpq default)', $rt0 u 1:7 w lp pt 9 ps 0.5 dt 2 lw 2 lc rgb '#ff7f0e' t 'I_P gem (dpq default)', $rt0 u 1:8 w lp pt 9 ps 0.5 dt 2 lw 2 lc rgb '#2ca02c' t 'I_R cover_bound (dpq default)'
set title 'Tax, RNoise 0.01'
set xlabel 'rows (nodes)'
set logscale x
set logscale y
set ylabel 'seconds'
plot $rt1 u 1:2 w lp pt 5 ps 0.5 lc rgb '#000000' t 'graph build', $rt1 u 1:3 w lp pt 7 ps 0.5 dt 1 lw 1 lc rgb '#1f77b4' t 'I_MI optimized (paper)', $rt1 u 1:4 w lp pt 7 ps 0.5 dt 1 lw 1 lc rgb '#ff7f0e' t 'I_P optimized (paper)', $rt1 u 1:5 w lp pt 7 ps 0.5 dt 1 lw 1 lc rgb '#2ca02c' t 'I_R vertex_cover (paper)', $rt1 u 1:6 w lp pt 9 ps 0.5 dt 2 lw 2 lc rgb '#1f77b4' t 'I_MI gem (dpq default)', $rt1 u 1:7 w lp pt 9 ps 0.5 dt 2 lw 2 lc rgb '#ff7f0e' t 'I_P gem (dpq default)', $rt1 u 1:8 w lp pt 9 ps 0.5 dt 2 lw 2 lc rgb '#2ca02c' t 'I_R cover_bound (dpq default)'
set title 'Flights, RNoise 0.005'
set xlabel 'number of DCs'
unset logscale x
set logscale y
set ylabel 'seconds'
plot $rt2 u 1:2 w lp pt 5 ps 0.5 lc rgb '#000000' t 'graph build', $rt2 u 1:3 w lp pt 7 ps 0.5 dt 1 lw 1 lc rgb '#1f77b4' t 'I_MI optimized (paper)', $rt2 u 1:4 w lp pt 7 ps 0.5 dt 1 lw 1 lc rgb '#ff7f0e' t 'I_P optimized (paper)', $rt2 u 1:5 w lp pt 7 ps 0.5 dt 1 lw 1 lc rgb '#2ca02c' t 'I_R vertex_cover (paper)', $rt2 u 1:6 w lp pt 9 ps 0.5 dt 2 lw 2 lc rgb '#1f77b4' t 'I_MI gem (dpq default)', $rt2 u 1:7 w lp pt 9 ps 0.5 dt 2 lw 2 lc rgb '#ff7f0e' t 'I_P gem (dpq default)', $rt2 u 1:8 w lp pt 9 ps 0.5 dt 2 lw 2 lc rgb '#2ca02c' t 'I_R cover_bound (dpq default)'
unset multiplot
