set terminal pngcairo size 1500,900 font 'DejaVu Sans,8'
set output 'fig3.png'
set termoption noenhanced
set key font ',7' samplen 3
set grid
set xtics rotate by 30 right
set format y '%g'
$stock_P << EOD
140 38 NaN 40.3 7.51066 42.1 9.73088
280 86 NaN 85.3 6.32535 90.1 6.22013
420 122 NaN 126.9 5.55788 121.4 3.61109
560 166 NaN 163.6 12.7844 167.3 8.28312
700 192 NaN 187.6 13.771 186.6 13.6616
EOD
$tax_P << EOD
220 6316 NaN 2540.1 2433.63 5601.8 748.029
440 8376 NaN 2991.6 3245.88 8479.2 603.777
660 9428 NaN 2975.9 3310.77 9395.1 235.08
880 9797 NaN 5637.9 4508.13 9639.7 176.176
1100 9934 NaN 2683.1 2354.97 9750.2 621.173
EOD
$hospital_P << EOD
16 444 NaN 87.1 53.7633 113.6 109.816
32 690 NaN 91.5 39.098 400 227.742
48 820 NaN 258.9 201.012 633.2 265.205
64 886 NaN 250.7 99.0192 787.5 204.653
80 936 NaN 435.6 300.478 822.6 135.333
EOD
$flights_P << EOD
23 1214 NaN 922.2 112.11 1043.7 52.6935
47 1436 NaN 992.2 82.5007 1146.8 117.914
71 1759 NaN 1142.5 298.707 1391 226.65
95 1891 NaN 1205.1 331.892 1551.8 251.817
119 2044 NaN 1078.6 163.421 1727.3 139.326
EOD
$adult_P << EOD
80 9996 NaN 2153.6 3076.9 6231.8 4560.62
160 10000 NaN 233.4 4939.46 9151.7 1003.67
240 10000 NaN 3263.3 4002.39 9538.1 858.981
320 10000 NaN 2842 4418.24 9284.8 602.641
400 10000 NaN 3454.3 3578.94 9898.8 276.666
EOD
$stock_MI << EOD
140 19 NaN 16.5 7.57958 0.2 56.7517
280 43 NaN 33.7 26.9742 35.3 27.2729
420 61 NaN 61.4 1.85472 60.7 2.36854
560 83 NaN 80.3 8.72983 78.7 10.4024
700 96 NaN 73.6 64.6811 96.9 5.73498
EOD
$tax_MI << EOD
220 10056 NaN 6885.3 3333.97 8172.4 1695.56
440 19922 NaN 16094.5 5066.87 18599.5 1057.65
660 30538 NaN 27813.8 3989.88 29453.9 2042.17
880 41976 NaN 36339.3 11301.7 40224.1 1294.63
1100 52621 NaN 50671.4 3507.49 50001.5 3886.76
EOD
$hospital_MI << EOD
16 586 NaN 100.1 79.4675 176.3 220.559
32 1155 NaN 620.1 508.809 340.1 383.77
48 1734 NaN 578.2 743.125 1206.8 423.498
64 2230 NaN 1024.5 943.379 1677.7 488.115
80 2733 NaN 1882.5 1128.14 2517 449.389
EOD
$flights_MI << EOD
23 17694 NaN 15011.1 4947.58 17478.6 560.755
47 18186 NaN 16623 4850.61 17331.1 966.595
71 18753 NaN 17187.2 4300.4 18285.9 794.949
95 19288 NaN 15966.5 6469.7 18665.3 1139.72
119 19779 NaN 16091.9 6434.13 19332.8 813.529
EOD
$adult_MI << EOD
80 118869 NaN 40129.5 38218.3 41280 32137.4
160 247786 NaN 183407 44637.6 171574 64766.9
240 398757 NaN 296073 87117.7 310427 58781.6
320 509966 NaN 427007 37564.4 459322 30277
400 616987 NaN 512799 48394.3 552586 37259
EOD
$stock_R << EOD
140 19 38 39.2 2.95973 19.1 0.943398 19.1 0.7
280 43 86 86.3 2.41039 43 1.34164 42.8 0.6
420 61 122 123.6 2.57682 60.6 0.8 60.9 0.538516
560 83 166 166.4 2.00998 83 1.18322 82.8 0.87178
700 96 192 192.5 1.68819 95.9 1.64012 96.3 1.79165
EOD
$tax_R << EOD
220 125 250 250.2 2.85657 125.4 1.2 125.1 1.3
440 235 468 468.8 2.13542 234.9 1.04403 235.2 0.979796
660 364 724 723.5 2.41868 363.1 1.51327 362.4 1.85472
880 488 970 970 3.40588 488.4 0.489898 488.5 0.921954
1100 609 1212 1212.1 2.42693 608.7 0.640312 608.3 0.9
EOD
$hospital_R << EOD
16 16 30 29.2 1.98997 16.1 1.7 15.7 1.00499
32 31 60 57.7 3.43657 31.3 1.26886 31.2 0.6
48 47 92 93.4 2.87054 45.7 2.05183 46.8 1.4
64 61 120 117.2 4.37721 62 2.56905 61 1.61245
80 77 152 150.9 1.75784 77.8 2.22711 77.6 1.42829
EOD
$flights_R << EOD
23 478 826 826.6 3.46987 457 1 477.6 1.28062
47 494 848 849.8 2.13542 471.1 1.37477 494.2 0.6
71 512 880 881.5 2.1095 488.8 0.979796 512.3 0.458258
95 526 908 907.4 2.87054 502.1 1.37477 526.7 0.9
119 541 936 935.5 2.72947 519.1 1.22066 541.2 1.07703
EOD
$adult_R << EOD
80 42 84 84.6 2.00998 41.9 0.943398 42 1.78885
160 82 164 165.4 3.63868 81.8 2.6 82.1 0.830662
240 136 272 271.2 2.56125 135.3 1.26886 136.2 0.979796
320 174 348 348.8 2.48193 174.2 1.46969 174.3 1.00499
400 218 436 435.9 1.86815 217.8 0.979796 218.2 1.249
EOD
set multiplot layout 3,5 title 'Figure 3: true vs private, RNoise alpha 0.01, eps 1 (mean +- std)' noenhanced
set title 'stock: I_P' noenhanced
set xlabel 'iterations'
plot $stock_P u 1:($4-$5):($4+$5) w filledcurves lc rgb '#bcd4f0' notitle, $stock_P u 1:2 w lp pt 5 ps 0.5 lc rgb '#ff7f0e' t 'true', $stock_P u 1:4 w lp pt 7 ps 0.5 dt 1 lw 1 lc rgb '#1f77b4' t 'optimized (paper)', $stock_P u 1:6 w lp pt 9 ps 0.5 dt 2 lw 2 lc rgb '#d62728' t 'gem (dpq default)'
set title 'tax: I_P' noenhanced
set xlabel 'iterations'
plot $tax_P u 1:($4-$5):($4+$5) w filledcurves lc rgb '#bcd4f0' notitle, $tax_P u 1:2 w lp pt 5 ps 0.5 lc rgb '#ff7f0e' t 'true', $tax_P u 1:4 w lp pt 7 ps 0.5 dt 1 lw 1 lc rgb '#1f77b4' t 'optimized (paper)', $tax_P u 1:6 w lp pt 9 ps 0.5 dt 2 lw 2 lc rgb '#d62728' t 'gem (dpq default)'
set title 'hospital: I_P' noenhanced
set xlabel 'iterations'
plot $hospital_P u 1:($4-$5):($4+$5) w filledcurves lc rgb '#bcd4f0' notitle, $hospital_P u 1:2 w lp pt 5 ps 0.5 lc rgb '#ff7f0e' t 'true', $hospital_P u 1:4 w lp pt 7 ps 0.5 dt 1 lw 1 lc rgb '#1f77b4' t 'optimized (paper)', $hospital_P u 1:6 w lp pt 9 ps 0.5 dt 2 lw 2 lc rgb '#d62728' t 'gem (dpq default)'
set title 'flights: I_P' noenhanced
set xlabel 'iterations'
plot $flights_P u 1:($4-$5):($4+$5) w filledcurves lc rgb '#bcd4f0' notitle, $flights_P u 1:2 w lp pt 5 ps 0.5 lc rgb '#ff7f0e' t 'true', $flights_P u 1:4 w lp pt 7 ps 0.5 dt 1 lw 1 lc rgb '#1f77b4' t 'optimized (paper)', $flights_P u 1:6 w lp pt 9 ps 0.5 dt 2 lw 2 lc rgb '#d62728' t 'gem (dpq default)'
set title 'adult: I_P' noenhanced
set xlabel 'iterations'
plot $adult_P u 1:($4-$5):($4+$5) w filledcurves lc rgb '#bcd4f0' notitle, $adult_P u 1:2 w lp pt 5 ps 0.5 lc rgb '#ff7f0e' t 'true', $adult_P u 1:4 w lp pt 7 ps 0.5 dt 1 lw 1 lc rgb '#1f77b4' t 'optimized (paper)', $adult_P u 1:6 w lp pt 9 ps 0.5 dt 2 lw 2 lc rgb '#d62728' t 'gem (dpq default)'
set title 'stock: I_MI' noenhanced
set xlabel 'iterations'
plot $stock_MI u 1:($4-$5):($4+$5) w filledcurves lc rgb '#bcd4f0' notitle, $stock_MI u 1:2 w lp pt 5 ps 0.5 lc rgb '#ff7f0e' t 'true', $stock_MI u 1:4 w lp pt 7 ps 0.5 dt 1 lw 1 lc rgb '#1f77b4' t 'optimized (paper)', $stock_MI u 1:6 w lp pt 9 ps 0.5 dt 2 lw 2 lc rgb '#d62728' t 'gem (dpq default)'
set title 'tax: I_MI' noenhanced
set xlabel 'iterations'
plot $tax_MI u 1:($4-$5):($4+$5) w filledcurves lc rgb '#bcd4f0' notitle, $tax_MI u 1:2 w lp pt 5 ps 0.5 lc rgb '#ff7f0e' t 'true', $tax_MI u 1:4 w lp pt 7 ps 0.5 dt 1 lw 1 lc rgb '#1f77b4' t 'optimized (paper)', $tax_MI u 1:6 w lp pt 9 ps 0.5 dt 2 lw 2 lc rgb '#d62728' t 'gem (dpq default)'
set title 'hospital: I_MI' noenhanced
set xlabel 'iterations'
plot $hospital_MI u 1:($4-$5):($4+$5) w filledcurves lc rgb '#bcd4f0' notitle, $hospital_MI u 1:2 w lp pt 5 ps 0.5 lc rgb '#ff7f0e' t 'true', $hospital_MI u 1:4 w lp pt 7 ps 0.5 dt 1 lw 1 lc rgb '#1f77b4' t 'optimized (paper)', $hospital_MI u 1:6 w lp pt 9 ps 0.5 dt 2 lw 2 lc rgb '#d62728' t 'gem (dpq default)'
set title 'flights: I_MI' noenhanced
set xlabel 'iterations'
plot $flights_MI u 1:($4-$5):($4+$5) w filledcurves lc rgb '#bcd4f0' notitle, $flights_MI u 1:2 w lp pt 5 ps 0.5 lc rgb '#ff7f0e' t 'true', $flights_MI u 1:4 w lp pt 7 ps 0.5 dt 1 lw 1 lc rgb '#1f77b4' t 'optimized (paper)', $flights_MI u 1:6 w lp pt 9 ps 0.5 dt 2 lw 2 lc rgb '#d62728' t 'gem (dpq default)'
set title 'adult: I_MI' noenhanced
set xlabel 'iterations'
plot $adult_MI u 1:($4-$5):($4+$5) w filledcurves lc rgb '#bcd4f0' notitle, $adult_MI u 1:2 w lp pt 5 ps 0.5 lc rgb '#ff7f0e' t 'true', $adult_MI u 1:4 w lp pt 7 ps 0.5 dt 1 lw 1 lc rgb '#1f77b4' t 'optimized (paper)', $adult_MI u 1:6 w lp pt 9 ps 0.5 dt 2 lw 2 lc rgb '#d62728' t 'gem (dpq default)'
set title 'stock: I_R' noenhanced
set xlabel 'iterations'
plot $stock_R u 1:($4-$5):($4+$5) w filledcurves lc rgb '#bcd4f0' notitle, $stock_R u 1:2 w lp pt 5 ps 0.5 lc rgb '#ff7f0e' t 'true', $stock_R u 1:3 w l dt 4 lc rgb '#2ca02c' t 'greedy cover (non-private)', $stock_R u 1:4 w lp pt 7 ps 0.5 dt 1 lw 1 lc rgb '#1f77b4' t 'vertex_cover (paper)', $stock_R u 1:6 w lp pt 9 ps 0.5 dt 2 lw 2 lc rgb '#d62728' t 'cover_bound (dpq default)', $stock_R u 1:8 w lp pt 11 ps 0.5 dt 3 lw 2 lc rgb '#9467bd' t 'exact (dpq default with exact_repair)'
set title 'tax: I_R' noenhanced
set xlabel 'iterations'
plot $tax_R u 1:($4-$5):($4+$5) w filledcurves lc rgb '#bcd4f0' notitle, $tax_R u 1:2 w lp pt 5 ps 0.5 lc rgb '#ff7f0e' t 'true', $tax_R u 1:3 w l dt 4 lc rgb '#2ca02c' t 'greedy cover (non-private)', $tax_R u 1:4 w lp pt 7 ps 0.5 dt 1 lw 1 lc rgb '#1f77b4' t 'vertex_cover (paper)', $tax_R u 1:6 w lp pt 9 ps 0.5 dt 2 lw 2 lc rgb '#d62728' t 'cover_bound (dpq default)', $tax_R u 1:8 w lp pt 11 ps 0.5 dt 3 lw 2 lc rgb '#9467bd' t 'exact (dpq default with exact_repair)'
set title 'hospital: I_R' noenhanced
set xlabel 'iterations'
plot $hospital_R u 1:($4-$5):($4+$5) w filledcurves lc rgb '#bcd4f0' notitle, $hospital_R u 1:2 w lp pt 5 ps 0.5 lc rgb '#ff7f0e' t 'true', $hospital_R u 1:3 w l dt 4 lc rgb '#2ca02c' t 'greedy cover (non-private)', $hospital_R u 1:4 w lp pt 7 ps 0.5 dt 1 lw 1 lc rgb '#1f77b4' t 'vertex_cover (paper)', $hospital_R u 1:6 w lp pt 9 ps 0.5 dt 2 lw 2 lc rgb '#d62728' t 'cover_bound (dpq default)', $hospital_R u 1:8 w lp pt 11 ps 0.5 dt 3 lw 2 lc rgb '#9467bd' t 'exact (dpq default with exact_repair)'
set title 'flights: I_R' noenhanced
set xlabel 'iterations'
plot $flights_R u 1:($4-$5):($4+$5) w filledcurves lc rgb '#bcd4f0' notitle, $flights_R u 1:2 w lp pt 5 ps 0.5 lc rgb '#ff7f0e' t 'true', $flights_R u 1:3 w l dt 4 lc rgb '#2ca02c' t 'greedy cover (non-private)', $flights_R u 1:4 w lp pt 7 ps 0.5 dt 1 lw 1 lc rgb '#1f77b4' t 'vertex_cover (paper)', $flights_R u 1:6 w lp pt 9 ps 0.5 dt 2 lw 2 lc rgb '#d62728' t 'cover_bound (dpq default)', $flights_R u 1:8 w lp pt 11 ps 0.5 dt 3 lw 2 lc rgb '#9467bd' t 'exact (dpq default with exact_repair)'
set title 'adult: I_R' noenhanced
set xlabel 'iterations'
plot $adult_R u 1:($4-$5):($4+$5) w filledcurves lc rgb '#bcd4f0' notitle, $adult_R u 1:2 w lp pt 5 ps 0.5 lc rgb '#ff7f0e' t 'true', $adult_R u 1:3 w l dt 4 lc rgb '#2ca02c' t 'greedy cover (non-private)', $adult_R u 1:4 w lp pt 7 ps 0.5 dt 1 lw 1 lc rgb '#1f77b4' t 'vertex_cover (paper)', $adult_R u 1:6 w lp pt 9 ps 0.5 dt 2 lw 2 lc rgb '#d62728' t 'cover_bound (dpq default)', $adult_R u 1:8 w lp pt 11 ps 0.5 dt 3 lw 2 lc rgb '#9467bd' t 'exact (dpq default with exact_repair)'
unset multiplot
