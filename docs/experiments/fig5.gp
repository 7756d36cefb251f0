set terminal pngcairo size 1500,800 font 'DejaVu Sans,8'
set output 'fig5.png'
set termoption noenhanced
set key font ',7' samplen 3
set grid
set xtics rotate by 30 right
set format y '%g'
$stock_P << EOD
38 193.671 0.0315789 113.911 113.239 0.192105 0.0973684
86 145.835 0.027907 80.2081 20.5837 0.0674419 0.151163
122 80.4213 0.0196721 38.882 52.5295 0.0344262 0.0311475
166 68.7355 0.0126506 26.95 17.0614 0.0198795 0.0126506
192 58.8036 0.00989583 37.0349 5.49635 0.065625 0.0291667
EOD
$tax_P << EOD
6316 2.00066 0.102834 0.789772 0.569174 0.818224 0.154892
8376 1.16341 0.036533 1.3483 0.694866 0.773233 0.0428964
9428 0.79265 0.0588248 0.448695 0.539616 0.456544 0.0342809
9797 1.26717 0.0417475 1.12053 0.499643 0.434286 0.0437889
9934 1.09452 0.0382827 0.253382 0.571814 0.668975 0.0450171
EOD
$hospital_P << EOD
444 2.58536 0.293694 0.947523 0.588288 0.901126 0.614189
690 1.67754 0.124203 1.12058 0.736667 0.753333 0.562029
820 1.20707 0.0439024 0.438293 0.736951 0.728415 0.306341
886 1.1754 0.135666 0.542099 0.686569 0.76535 0.213544
936 1.16506 0.151389 1.08098 0.754487 0.638889 0.182692
EOD
$flights_P << EOD
1214 2.76524 0.0560132 0.321499 0.367133 0.279077 0.165568
1436 1.91999 0.0412256 0.637117 0.230153 0.325139 0.219777
1759 1.94059 0.040307 0.665435 0.348039 0.460034 0.199261
1891 1.27753 0.0680063 0.765574 0.38752 0.381861 0.17028
2044 1.11986 0.0989726 1.13571 0.669178 0.379256 0.230871
EOD
$adult_P << EOD
9996 1.1248 0.47431 1.06993 0.891777 0.780242 0.581733
10000 0.89079 0.73399 1.55595 0.87797 0.78964 0.12822
10000 1.21168 0.62635 0.84487 0.6394 0.79287 0.08048
10000 1.18055 0.54305 0.92507 0.82079 0.61876 0.06355
10000 1.21466 0.49846 1.32327 0.86117 0.81571 0.0203
EOD
$stock_MI << EOD
19 440.868 0.0368421 233.779 196.153 0.7 0.163158
43 254.365 0.0116279 57.8233 3.5 0.353488 0.027907
61 98.9705 0.00983607 110.115 21.0197 0.052459 0.0409836
83 151.506 0.00963855 35.9265 18.2819 0.0301205 0.039759
96 108.984 0.0125 57.5802 0.626042 0.0427083 0.460417
EOD
$tax_MI << EOD
10056 0.849712 0.0499602 0.957647 0.520207 0.318874 0.136456
19922 0.648062 0.00575243 0.282873 0.532452 0.195548 0.106415
30538 0.209582 0.00832733 0.0804277 0.243791 0.124376 0.0576397
41976 0.446817 0.0106632 0.41154 0.524914 0.175522 0.0882933
52621 0.114728 0.00729747 0.158513 0.406756 0.0397332 0.0369092
EOD
$hospital_MI << EOD
586 1.73686 0.0901024 0.702901 1.68635 0.919283 0.95
1155 0.804242 0.0692641 0.83342 0.730909 0.824675 0.371775
1734 0.582872 0.0604383 0.730681 0.617935 0.778547 0.377163
2230 0.702735 0.0186547 0.420538 0.688206 0.717265 0.257758
2733 0.24592 0.0562752 0.567069 0.346725 0.296268 0.228028
EOD
$flights_MI << EOD
17694 0.102159 0.00634678 0.36071 0.457918 0.102351 0.0445236
18186 0.0603596 0.00239195 0.153932 0.302485 0.106675 0.041334
18753 0.124663 0.00427132 0.31091 0.110702 0.104687 0.0615635
19288 0.151493 0.00387806 0.125508 0.360914 0.00794795 0.0114527
19779 0.105567 0.00818039 0.369331 0.205728 0.00620355 0.0429294
EOD
$adult_MI << EOD
118869 0.0926078 0.0564798 0.340385 0.504826 0.616898 0.668243
247786 0.0210189 0.027031 0.174487 0.228365 0.330749 0.176658
398757 0.0209694 0.0202075 0.0966787 0.194264 0.2088 0.171945
509966 0.0275914 0.0209849 0.100258 0.19169 0.264996 0.212495
616987 0.0185372 0.0145815 0.0586032 0.0850749 0.269435 0.125226
EOD
set key below maxrows 3
set multiplot layout 2,5 title 'Figure 5: relative error of the theta strategies and gem, RNoise 0.01, eps 1 (log y)'
set title 'stock: I_P' noenhanced
set xlabel 'true value'
set logscale y
plot $stock_P u 1:2 w lp pt 4 ps 0.5 dt 1 lw 1 lc rgb '#8c564b' t 'baseline1 (paper)', $stock_P u 1:3 w lp pt 6 ps 0.5 dt 1 lw 1 lc rgb '#7f7f7f' t 'baseline2 (paper)', $stock_P u 1:4 w lp pt 8 ps 0.5 dt 1 lw 1 lc rgb '#bcbd22' t 'basic (paper)', $stock_P u 1:5 w lp pt 10 ps 0.5 dt 1 lw 1 lc rgb '#17becf' t 'hierarchical (paper)', $stock_P u 1:6 w lp pt 7 ps 0.5 dt 1 lw 1 lc rgb '#1f77b4' t 'optimized (paper)', $stock_P u 1:7 w lp pt 9 ps 0.5 dt 2 lw 2 lc rgb '#d62728' t 'gem (dpq default)'
set title 'tax: I_P' noenhanced
set xlabel 'true value'
set logscale y
plot $tax_P u 1:2 w lp pt 4 ps 0.5 dt 1 lw 1 lc rgb '#8c564b' t 'baseline1 (paper)', $tax_P u 1:3 w lp pt 6 ps 0.5 dt 1 lw 1 lc rgb '#7f7f7f' t 'baseline2 (paper)', $tax_P u 1:4 w lp pt 8 ps 0.5 dt 1 lw 1 lc rgb '#bcbd22' t 'basic (paper)', $tax_P u 1:5 w lp pt 10 ps 0.5 dt 1 lw 1 lc rgb '#17becf' t 'hierarchical (paper)', $tax_P u 1:6 w lp pt 7 ps 0.5 dt 1 lw 1 lc rgb '#1f77b4' t 'optimized (paper)', $tax_P u 1:7 w lp pt 9 ps 0.5 dt 2 lw 2 lc rgb '#d62728' t 'gem (dpq default)'
set title 'hospital: I_P' noenhanced
set xlabel 'true value'
set logscale y
plot $hospital_P u 1:2 w lp pt 4 ps 0.5 dt 1 lw 1 lc rgb '#8c564b' t 'baseline1 (paper)', $hospital_P u 1:3 w lp pt 6 ps 0.5 dt 1 lw 1 lc rgb '#7f7f7f' t 'baseline2 (paper)', $hospital_P u 1:4 w lp pt 8 ps 0.5 dt 1 lw 1 lc rgb '#bcbd22' t 'basic (paper)', $hospital_P u 1:5 w lp pt 10 ps 0.5 dt 1 lw 1 lc rgb '#17becf' t 'hierarchical (paper)', $hospital_P u 1:6 w lp pt 7 ps 0.5 dt 1 lw 1 lc rgb '#1f77b4' t 'optimized (paper)', $hospital_P u 1:7 w lp pt 9 ps 0.5 dt 2 lw 2 lc rgb '#d62728' t 'gem (dpq default)'
set title 'flights: I_P' noenhanced
set xlabel 'true value'
set logscale y
plot $flights_P u 1:2 w lp pt 4 ps 0.5 dt 1 lw 1 lc rgb '#8c564b' t 'baseline1 (paper)', $flights_P u 1:3 w lp pt 6 ps 0.5 dt 1 lw 1 lc rgb '#7f7f7f' t 'baseline2 (paper)', $flights_P u 1:4 w lp pt 8 ps 0.5 dt 1 lw 1 lc rgb '#bcbd22' t 'basic (paper)', $flights_P u 1:5 w lp pt 10 ps 0.5 dt 1 lw 1 lc rgb '#17becf' t 'hierarchical (paper)', $flights_P u 1:6 w lp pt 7 ps 0.5 dt 1 lw 1 lc rgb '#1f77b4' t 'optimized (paper)', $flights_P u 1:7 w lp pt 9 ps 0.5 dt 2 lw 2 lc rgb '#d62728' t 'gem (dpq default)'
set title 'adult: I_P' noenhanced
set xlabel 'true value'
set logscale y
plot $adult_P u 1:2 w lp pt 4 ps 0.5 dt 1 lw 1 lc rgb '#8c564b' t 'baseline1 (paper)', $adult_P u 1:3 w lp pt 6 ps 0.5 dt 1 lw 1 lc rgb '#7f7f7f' t 'baseline2 (paper)', $adult_P u 1:4 w lp pt 8 ps 0.5 dt 1 lw 1 lc rgb '#bcbd22' t 'basic (paper)', $adult_P u 1:5 w lp pt 10 ps 0.5 dt 1 lw 1 lc rgb '#17becf' t 'hierarchical (paper)', $adult_P u 1:6 w lp pt 7 ps 0.5 dt 1 lw 1 lc rgb '#1f77b4' t 'optimized (paper)', $adult_P u 1:7 w lp pt 9 ps 0.5 dt 2 lw 2 lc rgb '#d62728' t 'gem (dpq default)'
set title 'stock: I_MI' noenhanced
set xlabel 'true value'
set logscale y
plot $stock_MI u 1:2 w lp pt 4 ps 0.5 dt 1 lw 1 lc rgb '#8c564b' t 'baseline1 (paper)', $stock_MI u 1:3 w lp pt 6 ps 0.5 dt 1 lw 1 lc rgb '#7f7f7f' t 'baseline2 (paper)', $stock_MI u 1:4 w lp pt 8 ps 0.5 dt 1 lw 1 lc rgb '#bcbd22' t 'basic (paper)', $stock_MI u 1:5 w lp pt 10 ps 0.5 dt 1 lw 1 lc rgb '#17becf' t 'hierarchical (paper)', $stock_MI u 1:6 w lp pt 7 ps 0.5 dt 1 lw 1 lc rgb '#1f77b4' t 'optimized (paper)', $stock_MI u 1:7 w lp pt 9 ps 0.5 dt 2 lw 2 lc rgb '#d62728' t 'gem (dpq default)'
set title 'tax: I_MI' noenhanced
set xlabel 'true value'
set logscale y
plot $tax_MI u 1:2 w lp pt 4 ps 0.5 dt 1 lw 1 lc rgb '#8c564b' t 'baseline1 (paper)', $tax_MI u 1:3 w lp pt 6 ps 0.5 dt 1 lw 1 lc rgb '#7f7f7f' t 'baseline2 (paper)', $tax_MI u 1:4 w lp pt 8 ps 0.5 dt 1 lw 1 lc rgb '#bcbd22' t 'basic (paper)', $tax_MI u 1:5 w lp pt 10 ps 0.5 dt 1 lw 1 lc rgb '#17becf' t 'hierarchical (paper)', $tax_MI u 1:6 w lp pt 7 ps 0.5 dt 1 lw 1 lc rgb '#1f77b4' t 'optimized (paper)', $tax_MI u 1:7 w lp pt 9 ps 0.5 dt 2 lw 2 lc rgb '#d62728' t 'gem (dpq default)'
set title 'hospital: I_MI' noenhanced
set xlabel 'true value'
set logscale y
plot $hospital_MI u 1:2 w lp pt 4 ps 0.5 dt 1 lw 1 lc rgb '#8c564b' t 'baseline1 (paper)', $hospital_MI u 1:3 w lp pt 6 ps 0.5 dt 1 lw 1 lc rgb '#7f7f7f' t 'baseline2 (paper)', $hospital_MI u 1:4 w lp pt 8 ps 0.5 dt 1 lw 1 lc rgb '#bcbd22' t 'basic (paper)', $hospital_MI u 1:5 w lp pt 10 ps 0.5 dt 1 lw 1 lc rgb '#17becf' t 'hierarchical (paper)', $hospital_MI u 1:6 w lp pt 7 ps 0.5 dt 1 lw 1 lc rgb '#1f77b4' t 'optimized (paper)', $hospital_MI u 1:7 w lp pt 9 ps 0.5 dt 2 lw 2 lc rgb '#d62728' t 'gem (dpq default)'
set title 'flights: I_MI' noenhanced
set xlabel 'true value'
set logscale y
plot $flights_MI u 1:2 w lp pt 4 ps 0.5 dt 1 lw 1 lc rgb '#8c564b' t 'baseline1 (paper)', $flights_MI u 1:3 w lp pt 6 ps 0.5 dt 1 lw 1 lc rgb '#7f7f7f' t 'baseline2 (paper)', $flights_MI u 1:4 w lp pt 8 ps 0.5 dt 1 lw 1 lc rgb '#bcbd22' t 'basic (paper)', $flights_MI u 1:5 w lp pt 10 ps 0.5 dt 1 lw 1 lc rgb '#17becf' t 'hierarchical (paper)', $flights_MI u 1:6 w lp pt 7 ps 0.5 dt 1 lw 1 lc rgb '#1f77b4' t 'optimized (paper)', $flights_MI u 1:7 w lp pt 9 ps 0.5 dt 2 lw 2 lc rgb '#d62728' t 'gem (dpq default)'
set title 'adult: I_MI' noenhanced
set xlabel 'true value'
set logscale y
plot $adult_MI u 1:2 w lp pt 4 ps 0.5 dt 1 lw 1 lc rgb '#8c564b' t 'baseline1 (paper)', $adult_MI u 1:3 w lp pt 6 ps 0.5 dt 1 lw 1 lc rgb '#7f7f7f' t 'baseline2 (paper)', $adult_MI u 1:4 w lp pt 8 ps 0.5 dt 1 lw 1 lc rgb '#bcbd22' t 'basic (paper)', $adult_MI u 1:5 w lp pt 10 ps 0.5 dt 1 lw 1 lc rgb '#17becf' t 'hierarchical (paper)', $adult_MI u 1:6 w lp pt 7 ps 0.5 dt 1 lw 1 lc rgb '#1f77b4' t 'optimized (paper)', $adult_MI u 1:7 w lp pt 9 ps 0.5 dt 2 lw 2 lc rgb '#d62728' t 'gem (dpq default)'
unset multiplot
