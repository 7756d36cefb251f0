set terminal pngcairo size 1500,900 font 'DejaVu Sans,8'
set output 'fig4.png'
set termoption noenhanced
set key font ',7' samplen 3
set grid
set xtics rotate by 30 right
set format y '%g'
$stock_P << EOD
40 93 NaN 25.7 177.445 99.1 22.6073
80 193 NaN 170.9 17.1782 190.9 6.54905
120 291 NaN 243.2 10.6658 287.3 3.97618
160 381 NaN 339.3 29.1789 386.9 9.0824
200 469 NaN 401.3 50.1239 470.3 4.77598
EOD
$tax_P << EOD
40 4262 NaN 161.2 94.3301 2299.4 1350.89
80 6675 NaN 4394.6 3660.41 5744.8 839.156
120 7885 NaN 2703.3 3347.23 7453.9 695.753
160 8654 NaN 2457.7 2621.05 8143.3 928.473
200 9213 NaN 2700.6 2833.72 8605 517.66
EOD
$hospital_P << EOD
40 910 NaN 183.1 70.902 750.6 237.982
80 991 NaN 228.6 71.4566 876.9 63.3774
120 1000 NaN 397.7 186.913 993.1 23.7716
160 1000 NaN 413.4 104.841 984.8 44.0382
200 1000 NaN 467 97.4577 992.4 69.8945
EOD
$flights_P << EOD
40 1603 NaN 906.2 80.7265 1145.6 123.107
80 1870 NaN 941.6 71.5139 1627.1 348.085
120 2033 NaN 1332 613.54 1436.6 1221.05
160 2174 NaN 1506.6 476.844 1967.9 161.564
200 2245 NaN 1319.4 309.497 1848.4 762.866
EOD
$adult_P << EOD
40 10000 NaN 991.5 1409.65 4564 3176.61
80 10000 NaN 3351.6 6811.17 9217.9 988.039
120 10000 NaN 1052.6 1622.24 10062.4 145.831
160 10000 NaN 2597.3 4053.94 9649.4 806.596
200 10000 NaN 1727.1 2835.69 9760.2 129.177
EOD
$stock_MI << EOD
40 66 NaN 60.7 16.6676 58.6 17.3101
80 146 NaN 98.5 25.9933 120 25.2071
120 226 NaN 140.7 42.907 202.8 38.1963
160 289 NaN 211.8 64.6557 243.7 54.745
200 363 NaN 267.4 90.3329 307.6 61.7077
EOD
$tax_MI << EOD
40 6613 NaN 2464.5 2515.1 3848.3 2104.35
80 12051 NaN 7648.3 5282.99 11637.3 1498.67
120 18738 NaN 8274.8 6790.2 18174.4 1828.2
160 25899 NaN 17266.9 9799.82 23151.9 1438.71
200 32954 NaN 26824.9 7662.09 31353.3 2119.89
EOD
$hospital_MI << EOD
40 2258 NaN 1457.7 1012.88 1722.6 689.492
80 4472 NaN 1900.1 2000.53 3820.7 918.518
120 6890 NaN 1837.3 2468.9 5467.4 1659.82
160 9048 NaN 7356.7 3276.98 7956.5 1122.26
200 10990 NaN 10652.1 1260.46 10807.9 247.154
EOD
$flights_MI << EOD
40 18476 NaN 16895.4 4930.21 18290.1 651.438
80 19693 NaN 19583.7 604.882 18773.2 1203.41
120 21030 NaN 19383.7 3866.94 20938.1 284.267
160 22118 NaN 21086 1398.29 21697.2 1072.77
200 23175 NaN 23083.2 192.066 23034.8 162.877
EOD
$adult_MI << EOD
40 162711 NaN 62213.7 63089.8 75653.3 41937
80 330381 NaN 203346 85846.9 248674 40797.3
120 511083 NaN 309506 149728 433827 89425.9
160 665795 NaN 525287 35660.3 581904 77354.8
200 819365 NaN 708081 66906.3 703085 78829.5
EOD
$stock_R << EOD
40 53 80 80.6 3.49857 47.1 1.3 52.2 1.4
80 113 160 160 1.48324 96.7 0.781025 113 1
120 172 240 240.1 1.51327 145.6 1.0198 171.8 1.07703
160 223 318 318.6 2.37487 190.4 1.74356 223.2 1.77764
200 276 390 390.7 1.84662 234.8 1.249 276.5 2.24722
EOD
$tax_R << EOD
40 48 96 95.8 2.71293 48.3 1.1 47.9 0.7
80 91 182 182.1 2.87924 91.4 0.8 91.3 1.48661
120 144 288 288.5 2.33452 143.7 1.95192 143.5 1.11803
160 190 378 376.5 1.96214 190.3 0.458258 190 1.34164
200 240 478 477.6 1.56205 240.3 1.00499 240.3 1.18743
EOD
$hospital_R << EOD
40 40 80 80.9 4.84665 39.7 1.9 40.2 1.4
80 77 152 152.5 2.01246 77 1.73205 76.9 1.13578
120 115 228 228.6 2.05913 115.2 0.979796 114.9 0.7
160 155 306 306.7 2.0025 154.8 0.979796 155 0.894427
200 185 366 364.3 3.92556 185 1 185 0.774597
EOD
$flights_R << EOD
40 489 846 845.3 2.14709 468.5 1.0247 489.4 2.15407
80 516 890 892.3 3.9 496.1 1.3 515.8 1.53623
120 540 928 929.7 2.41039 519.2 1.46969 540 0.774597
160 570 980 979 4.3359 548.2 0.748331 569.7 0.9
200 599 1024 1023.7 0.9 572.9 1.13578 598.9 1.04403
EOD
$adult_R << EOD
40 40 80 80.1 1.57797 40.2 0.87178 40.6 0.916515
80 80 160 160.8 1.46969 79.5 1.68819 80.2 1.07703
120 119 238 235.8 3.02655 118.6 1.42829 119 0.632456
160 158 316 318.4 3.8 157.5 1.28452 158.3 1.00499
200 197 394 392.4 2.498 197.4 1.62481 196.1 2.77308
EOD
set multiplot layout 3,5 title 'Figure 4: true vs private, CONoise 200 iterations, eps 1 (mean +- std)' noenhanced
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
