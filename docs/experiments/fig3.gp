set terminal png size 1500,720 font 'DejaVuSans,8'
set output 'fig3.png'
set termoption noenhanced
set key font ',7' samplen 2
set grid
set xtics rotate by 30 right
set format y '%g'
$stock_P << EOD
140 38 31.4 41.471 nan
280 86 86.8 7.19444 nan
420 122 120.7 4.1 nan
560 166 166.7 4.71275 nan
700 192 193.9 9.61717 nan
EOD
$tax_P << EOD
220 6316 2155 2583.62 nan
440 8376 2940.4 3298.11 nan
660 9428 3838.1 3471.11 nan
880 9797 4039 4089.61 nan
1100 9934 5411.1 3848.54 nan
EOD
$hospital_P << EOD
16 444 55.5 40.7413 nan
32 690 204.6 210.402 nan
48 820 158.7 106.644 nan
64 886 282.3 88.6522 nan
80 936 243.4 139.441 nan
EOD
$flights_P << EOD
23 1214 945.1 144.011 nan
47 1436 954.9 159.279 nan
71 1759 1152.3 333.041 nan
95 1891 1271.1 442.02 nan
119 2044 1278.3 431.728 nan
EOD
$adult_P << EOD
80 9996 1709.9 2149.57 nan
160 10000 3961.7 5461.2 nan
240 10000 3270.7 4325.39 nan
320 10000 2503.8 5435.31 nan
400 10000 2324.1 2394.03 nan
EOD
$stock_MI << EOD
140 19 19.8 0.87178 nan
280 43 43.8 11.0164 nan
420 61 60.7 2.6096 nan
560 83 81.1 5.55788 nan
700 96 99.6 7.95236 nan
EOD
$tax_MI << EOD
220 10056 4959.7 3774.73 nan
440 19922 12205.4 7418.33 nan
660 30538 20544.7 9200.95 nan
880 41976 39116.5 4347.78 nan
1100 52621 48779.9 5538.83 nan
EOD
$hospital_MI << EOD
16 586 116.9 151.745 nan
32 1155 207.4 371.939 nan
48 1734 372.6 386.089 nan
64 2230 1106.3 1138.32 nan
80 2733 624.5 731.009 nan
EOD
$flights_MI << EOD
23 17694 16096.5 3719.34 nan
47 18186 18130.3 226.233 nan
71 18753 15928.9 5747.36 nan
95 19288 19294.4 235.342 nan
119 19779 18320 4573.85 nan
EOD
$adult_MI << EOD
80 118869 37686.9 42296.1 nan
160 247786 186102 74808.3 nan
240 398757 336959 30286.2 nan
320 509966 371933 127229 nan
400 616987 519291 44665.9 nan
EOD
$stock_R << EOD
140 19 38.3 1.79165 38
280 43 87.5 2.41868 86
420 61 122.3 3.95095 122
560 83 165.5 2.29129 166
700 96 191.7 2.28254 192
EOD
$tax_R << EOD
220 125 249.4 3.07246 250
440 235 466.8 3.65513 468
660 364 723.1 1.3 724
880 488 970 2.48998 970
1100 609 1212.3 2.72213 1212
EOD
$hospital_R << EOD
16 16 28.6 3.38231 30
32 31 60.4 2.37487 60
48 47 92.2 2.85657 92
64 61 120.1 2.34307 120
80 77 152.4 1.74356 152
EOD
$flights_R << EOD
23 478 828.2 3.28024 826
47 494 847.7 2.41039 848
71 512 879.6 1.95959 880
95 526 908.8 3.65513 908
119 541 936.4 2.69072 936
EOD
$adult_R << EOD
80 42 83.5 1.80278 84
160 82 164.2 2.6 164
240 136 272.4 2.8 272
320 174 348.5 1.5 348
400 218 436.6 1.62481 436
EOD
set multiplot layout 3,5 title 'Figure 3: true vs private, RNoise alpha 0.01, eps 1 (mean +- std)' noenhanced
set title 'stock: I_P' noenhanced
set xlabel 'iterations'
plot $stock_P u 1:($3-$4):($3+$4) w filledcurves lc rgb '#bcd4f0' notitle, $stock_P u 1:3 w lp pt 7 ps 0.5 lc rgb '#1f77b4' t 'private', $stock_P u 1:2 w lp pt 5 ps 0.5 lc rgb '#ff7f0e' t 'true'
set title 'tax: I_P' noenhanced
set xlabel 'iterations'
plot $tax_P u 1:($3-$4):($3+$4) w filledcurves lc rgb '#bcd4f0' notitle, $tax_P u 1:3 w lp pt 7 ps 0.5 lc rgb '#1f77b4' t 'private', $tax_P u 1:2 w lp pt 5 ps 0.5 lc rgb '#ff7f0e' t 'true'
set title 'hospital: I_P' noenhanced
set xlabel 'iterations'
plot $hospital_P u 1:($3-$4):($3+$4) w filledcurves lc rgb '#bcd4f0' notitle, $hospital_P u 1:3 w lp pt 7 ps 0.5 lc rgb '#1f77b4' t 'private', $hospital_P u 1:2 w lp pt 5 ps 0.5 lc rgb '#ff7f0e' t 'true'
set title 'flights: I_P' noenhanced
set xlabel 'iterations'
plot $flights_P u 1:($3-$4):($3+$4) w filledcurves lc rgb '#bcd4f0' notitle, $flights_P u 1:3 w lp pt 7 ps 0.5 lc rgb '#1f77b4' t 'private', $flights_P u 1:2 w lp pt 5 ps 0.5 lc rgb '#ff7f0e' t 'true'
set title 'adult: I_P' noenhanced
set xlabel 'iterations'
plot $adult_P u 1:($3-$4):($3+$4) w filledcurves lc rgb '#bcd4f0' notitle, $adult_P u 1:3 w lp pt 7 ps 0.5 lc rgb '#1f77b4' t 'private', $adult_P u 1:2 w lp pt 5 ps 0.5 lc rgb '#ff7f0e' t 'true'
set title 'stock: I_MI' noenhanced
set xlabel 'iterations'
plot $stock_MI u 1:($3-$4):($3+$4) w filledcurves lc rgb '#bcd4f0' notitle, $stock_MI u 1:3 w lp pt 7 ps 0.5 lc rgb '#1f77b4' t 'private', $stock_MI u 1:2 w lp pt 5 ps 0.5 lc rgb '#ff7f0e' t 'true'
set title 'tax: I_MI' noenhanced
set xlabel 'iterations'
plot $tax_MI u 1:($3-$4):($3+$4) w filledcurves lc rgb '#bcd4f0' notitle, $tax_MI u 1:3 w lp pt 7 ps 0.5 lc rgb '#1f77b4' t 'private', $tax_MI u 1:2 w lp pt 5 ps 0.5 lc rgb '#ff7f0e' t 'true'
set title 'hospital: I_MI' noenhanced
set xlabel 'iterations'
plot $hospital_MI u 1:($3-$4):($3+$4) w filledcurves lc rgb '#bcd4f0' notitle, $hospital_MI u 1:3 w lp pt 7 ps 0.5 lc rgb '#1f77b4' t 'private', $hospital_MI u 1:2 w lp pt 5 ps 0.5 lc rgb '#ff7f0e' t 'true'
set title 'flights: I_MI' noenhanced
set xlabel 'iterations'
plot $flights_MI u 1:($3-$4):($3+$4) w filledcurves lc rgb '#bcd4f0' notitle, $flights_MI u 1:3 w lp pt 7 ps 0.5 lc rgb '#1f77b4' t 'private', $flights_MI u 1:2 w lp pt 5 ps 0.5 lc rgb '#ff7f0e' t 'true'
set title 'adult: I_MI' noenhanced
set xlabel 'iterations'
plot $adult_MI u 1:($3-$4):($3+$4) w filledcurves lc rgb '#bcd4f0' notitle, $adult_MI u 1:3 w lp pt 7 ps 0.5 lc rgb '#1f77b4' t 'private', $adult_MI u 1:2 w lp pt 5 ps 0.5 lc rgb '#ff7f0e' t 'true'
set title 'stock: I_R' noenhanced
set xlabel 'iterations'
plot $stock_R u 1:($3-$4):($3+$4) w filledcurves lc rgb '#bcd4f0' notitle, $stock_R u 1:3 w lp pt 7 ps 0.5 lc rgb '#1f77b4' t 'private', $stock_R u 1:2 w lp pt 5 ps 0.5 lc rgb '#ff7f0e' t 'true', $stock_R u 1:5 w l dt 2 lc rgb '#2ca02c' t 'greedy cover (non-private)'
set title 'tax: I_R' noenhanced
set xlabel 'iterations'
plot $tax_R u 1:($3-$4):($3+$4) w filledcurves lc rgb '#bcd4f0' notitle, $tax_R u 1:3 w lp pt 7 ps 0.5 lc rgb '#1f77b4' t 'private', $tax_R u 1:2 w lp pt 5 ps 0.5 lc rgb '#ff7f0e' t 'true', $tax_R u 1:5 w l dt 2 lc rgb '#2ca02c' t 'greedy cover (non-private)'
set title 'hospital: I_R' noenhanced
set xlabel 'iterations'
plot $hospital_R u 1:($3-$4):($3+$4) w filledcurves lc rgb '#bcd4f0' notitle, $hospital_R u 1:3 w lp pt 7 ps 0.5 lc rgb '#1f77b4' t 'private', $hospital_R u 1:2 w lp pt 5 ps 0.5 lc rgb '#ff7f0e' t 'true', $hospital_R u 1:5 w l dt 2 lc rgb '#2ca02c' t 'greedy cover (non-private)'
set title 'flights: I_R' noenhanced
set xlabel 'iterations'
plot $flights_R u 1:($3-$4):($3+$4) w filledcurves lc rgb '#bcd4f0' notitle, $flights_R u 1:3 w lp pt 7 ps 0.5 lc rgb '#1f77b4' t 'private', $flights_R u 1:2 w lp pt 5 ps 0.5 lc rgb '#ff7f0e' t 'true', $flights_R u 1:5 w l dt 2 lc rgb '#2ca02c' t 'greedy cover (non-private)'
set title 'adult: I_R' noenhanced
set xlabel 'iterations'
plot $adult_R u 1:($3-$4):($3+$4) w filledcurves lc rgb '#bcd4f0' notitle, $adult_R u 1:3 w lp pt 7 ps 0.5 lc rgb '#1f77b4' t 'private', $adult_R u 1:2 w lp pt 5 ps 0.5 lc rgb '#ff7f0e' t 'true', $adult_R u 1:5 w l dt 2 lc rgb '#2ca02c' t 'greedy cover (non-private)'
unset multiplot
