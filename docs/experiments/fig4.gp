set terminal png size 1500,720 font 'DejaVuSans,8'
set output 'fig4.png'
set termoption noenhanced
set key font ',7' samplen 2
set grid
set xtics rotate by 30 right
set format y '%g'
$stock_P << EOD
40 93 84.5 6.75648 nan
80 193 110.1 156.724 nan
120 291 249.9 15.0695 nan
160 381 335.1 28.7557 nan
200 469 406 30.3908 nan
EOD
$tax_P << EOD
40 4262 1092.2 1363.5 nan
80 6675 2088.9 1952.89 nan
120 7885 1875.2 2235.15 nan
160 8654 1631.7 2244.21 nan
200 9213 2303.2 3128.96 nan
EOD
$hospital_P << EOD
40 910 204.7 210.086 nan
80 991 304.7 225.451 nan
120 1000 315.9 114.764 nan
160 1000 443.1 172.068 nan
200 1000 719.3 515.547 nan
EOD
$flights_P << EOD
40 1603 1015.5 228.086 nan
80 1870 970.8 203.289 nan
120 2033 853 1408.81 nan
160 2174 1297.8 328.386 nan
200 2245 -153.7 4798.16 nan
EOD
$adult_P << EOD
40 10000 2148.7 2116.95 nan
80 10000 1894.1 2594.14 nan
120 10000 1840.4 2016.93 nan
160 10000 4015.5 4686.12 nan
200 10000 2222.1 2910.56 nan
EOD
$stock_MI << EOD
40 66 50.5 13.7204 nan
80 146 162.8 107.419 nan
120 226 164.6 55.7659 nan
160 289 199 62.2045 nan
200 363 245.2 77.0049 nan
EOD
$tax_MI << EOD
40 6613 1207.9 1603.75 nan
80 12051 5526.2 4602.49 nan
120 18738 11078.3 8251.4 nan
160 25899 12823.5 10417.8 nan
200 32954 29958.9 6271.77 nan
EOD
$hospital_MI << EOD
40 2258 1207.5 1016.23 nan
80 4472 2435.3 1833.46 nan
120 6890 4584.7 3194.51 nan
160 9048 5663.8 3833.24 nan
200 10990 8046.5 4457.85 nan
EOD
$flights_MI << EOD
40 18476 18547.9 300.501 nan
80 19693 19344.6 459.489 nan
120 21030 20824.6 366.487 nan
160 22118 22009.6 138.883 nan
200 23175 23148.9 185.075 nan
EOD
$adult_MI << EOD
40 162711 52924.5 54156.8 nan
80 330381 142653 98577.6 nan
120 511083 315829 95237.6 nan
160 665795 561594 20075.8 nan
200 819365 632919 143821 nan
EOD
$stock_R << EOD
40 53 81.2 1.8868 80
80 113 160.2 2.31517 160
120 172 240.9 2.3 240
160 223 318.7 1.26886 318
200 276 389.9 2.16564 390
EOD
$tax_R << EOD
40 48 95.6 1.2 96
80 91 181.1 1.7 182
120 144 288.9 1.37477 288
160 190 378.7 1.34536 378
200 240 477.1 4.39204 478
EOD
$hospital_R << EOD
40 40 82.2 2.27156 80
80 77 152.5 1.20416 152
120 115 228.7 2.19317 228
160 155 305.8 2.31517 306
200 185 366.2 1.249 366
EOD
$flights_R << EOD
40 489 846.4 1.42829 846
80 516 891.3 1.48661 890
120 540 929 3.63318 928
160 570 979.6 2.37487 980
200 599 1024.5 2.87228 1024
EOD
$adult_R << EOD
40 40 80.8 1.83303 80
80 80 159.2 2.44131 160
120 119 239.3 2.1 238
160 158 316.4 3.03974 316
200 197 395.3 3.28786 394
EOD
set multiplot layout 3,5 title 'Figure 4: true vs private, CONoise 200 iterations, eps 1 (mean +- std)' noenhanced
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
