set terminal png size 1500,520 font 'DejaVuSans,8'
set output 'fig5.png'
set termoption noenhanced
set key font ',7' samplen 2
set grid
set xtics rotate by 30 right
set format y '%g'
$stock_P << EOD
38 326.553 0.0394737 211.532 62.7053 0.157895
86 125.583 0.0174419 96.0093 36.7523 0.0488372
122 101.911 0.00737705 30.891 22.4516 0.0467213
166 41.4542 0.0150602 41.8114 2.57771 0.0186747
192 63.2297 0.0140625 16.6729 11.4984 0.0265625
EOD
$tax_P << EOD
6316 1.56279 0.0268524 1.25101 0.507616 0.821786
8376 0.541082 0.0527818 0.807569 0.639351 0.565413
9428 0.998377 0.0642554 0.650191 0.583655 0.641663
9797 0.934868 0.0210473 0.873584 0.740635 0.469899
9934 0.975126 0.0236461 0.782192 0.494302 0.58188
EOD
$hospital_P << EOD
444 1.90968 0.130856 1.09437 0.906081 0.798874
690 1.89145 0.148116 1.1958 0.901159 0.762174
820 1.51183 0.0830488 1.15805 0.777195 0.676585
886 0.554966 0.0404063 1.6991 0.759368 0.699436
936 1.02062 0.0685897 0.579594 0.64359 0.611111
EOD
$flights_P << EOD
1214 1.88278 0.0892916 0.415074 0.400659 0.303871
1436 1.40348 0.0268106 2.05996 0.320543 0.311699
1759 1.30887 0.0305287 1.58397 0.417851 0.323309
1891 2.13458 0.0738234 0.687203 0.61285 0.400952
2044 0.764677 0.041047 0.543151 0.355675 0.522945
EOD
$adult_P << EOD
9996 1.09393 1.15634 0.912035 0.938856 0.734924
10000 0.63806 1.46005 0.93306 0.72788 0.49498
10000 1.3645 1.41171 0.70935 0.84567 0.65505
10000 1.68 0.57749 0.90782 1.10344 0.82069
10000 0.98315 1.17307 1.01897 0.66124 0.61904
EOD
$stock_MI << EOD
19 406.768 0.0736842 209.795 173.147 0.0947368
43 146.698 0.00697674 137.721 11.2209 0.0395349
61 157.567 0.0180328 72.4262 18.1443 0.0278689
83 58.5699 0.00963855 112.805 11.7386 0.0289157
96 96.8125 0.0104167 72.9646 0.533333 0.0354167
EOD
$tax_MI << EOD
10056 0.771659 0.0303003 0.418775 0.562888 0.607409
19922 0.458212 0.0278386 0.219642 0.445417 0.46155
30538 0.265292 0.0192121 0.3749 0.287075 0.254162
41976 0.317384 0.00968411 0.233812 0.556478 0.161273
52621 0.209148 0.00836548 0.322913 0.0998024 0.0836035
EOD
$hospital_MI << EOD
586 1.2901 0.100683 0.990273 0.864846 0.752901
1155 1.18926 0.0414719 0.738442 0.957835 0.709437
1734 0.461303 0.0390427 0.4609 0.884948 0.750865
2230 0.458206 0.0275336 0.486009 0.681883 0.44583
2733 0.37468 0.0357849 0.607062 0.462788 0.447347
EOD
$flights_MI << EOD
17694 0.112886 0.0022663 0.197282 0.538544 0.0873234
18186 0.15281 0.00517981 0.273568 0.482151 0.00814913
18753 0.12615 0.00404735 0.31331 0.40409 0.134576
19288 0.0740823 0.00413729 0.204873 0.337287 0.030029
19779 0.0902118 0.00446433 0.0412255 0.346342 0.0459882
EOD
$adult_MI << EOD
118869 0.0987549 0.0719759 0.155834 0.495988 0.471935
247786 0.0356751 0.0296292 0.0788911 0.371925 0.458856
398757 0.016651 0.0151345 0.0630422 0.248367 0.247258
509966 0.0315615 0.0139176 0.0426209 0.130737 0.249796
616987 0.0161321 0.0139888 0.0466007 0.110728 0.154143
EOD
set multiplot layout 2,5 title 'Figure 5: relative error of the theta strategies, RNoise 0.01, eps 1 (log y)'
set title 'stock: I_P' noenhanced
set xlabel 'true value'
set logscale y
plot $stock_P u 1:2 w lp pt 4 ps 0.5 t 'baseline1', $stock_P u 1:3 w lp pt 5 ps 0.5 t 'baseline2', $stock_P u 1:4 w lp pt 6 ps 0.5 t 'basic', $stock_P u 1:5 w lp pt 7 ps 0.5 t 'hierarchical', $stock_P u 1:6 w lp pt 8 ps 0.5 t 'optimized'
set title 'tax: I_P' noenhanced
set xlabel 'true value'
set logscale y
plot $tax_P u 1:2 w lp pt 4 ps 0.5 t 'baseline1', $tax_P u 1:3 w lp pt 5 ps 0.5 t 'baseline2', $tax_P u 1:4 w lp pt 6 ps 0.5 t 'basic', $tax_P u 1:5 w lp pt 7 ps 0.5 t 'hierarchical', $tax_P u 1:6 w lp pt 8 ps 0.5 t 'optimized'
set title 'hospital: I_P' noenhanced
set xlabel 'true value'
set logscale y
plot $hospital_P u 1:2 w lp pt 4 ps 0.5 t 'baseline1', $hospital_P u 1:3 w lp pt 5 ps 0.5 t 'baseline2', $hospital_P u 1:4 w lp pt 6 ps 0.5 t 'basic', $hospital_P u 1:5 w lp pt 7 ps 0.5 t 'hierarchical', $hospital_P u 1:6 w lp pt 8 ps 0.5 t 'optimized'
set title 'flights: I_P' noenhanced
set xlabel 'true value'
set logscale y
plot $flights_P u 1:2 w lp pt 4 ps 0.5 t 'baseline1', $flights_P u 1:3 w lp pt 5 ps 0.5 t 'baseline2', $flights_P u 1:4 w lp pt 6 ps 0.5 t 'basic', $flights_P u 1:5 w lp pt 7 ps 0.5 t 'hierarchical', $flights_P u 1:6 w lp pt 8 ps 0.5 t 'optimized'
set title 'adult: I_P' noenhanced
set xlabel 'true value'
set logscale y
plot $adult_P u 1:2 w lp pt 4 ps 0.5 t 'baseline1', $adult_P u 1:3 w lp pt 5 ps 0.5 t 'baseline2', $adult_P u 1:4 w lp pt 6 ps 0.5 t 'basic', $adult_P u 1:5 w lp pt 7 ps 0.5 t 'hierarchical', $adult_P u 1:6 w lp pt 8 ps 0.5 t 'optimized'
set title 'stock: I_MI' noenhanced
set xlabel 'true value'
set logscale y
plot $stock_MI u 1:2 w lp pt 4 ps 0.5 t 'baseline1', $stock_MI u 1:3 w lp pt 5 ps 0.5 t 'baseline2', $stock_MI u 1:4 w lp pt 6 ps 0.5 t 'basic', $stock_MI u 1:5 w lp pt 7 ps 0.5 t 'hierarchical', $stock_MI u 1:6 w lp pt 8 ps 0.5 t 'optimized'
set title 'tax: I_MI' noenhanced
set xlabel 'true value'
set logscale y
plot $tax_MI u 1:2 w lp pt 4 ps 0.5 t 'baseline1', $tax_MI u 1:3 w lp pt 5 ps 0.5 t 'baseline2', $tax_MI u 1:4 w lp pt 6 ps 0.5 t 'basic', $tax_MI u 1:5 w lp pt 7 ps 0.5 t 'hierarchical', $tax_MI u 1:6 w lp pt 8 ps 0.5 t 'optimized'
set title 'hospital: I_MI' noenhanced
set xlabel 'true value'
set logscale y
plot $hospital_MI u 1:2 w lp pt 4 ps 0.5 t 'baseline1', $hospital_MI u 1:3 w lp pt 5 ps 0.5 t 'baseline2', $hospital_MI u 1:4 w lp pt 6 ps 0.5 t 'basic', $hospital_MI u 1:5 w lp pt 7 ps 0.5 t 'hierarchical', $hospital_MI u 1:6 w lp pt 8 ps 0.5 t 'optimized'
set title 'flights: I_MI' noenhanced
set xlabel 'true value'
set logscale y
plot $flights_MI u 1:2 w lp pt 4 ps 0.5 t 'baseline1', $flights_MI u 1:3 w lp pt 5 ps 0.5 t 'baseline2', $flights_MI u 1:4 w lp pt 6 ps 0.5 t 'basic', $flights_MI u 1:5 w lp pt 7 ps 0.5 t 'hierarchical', $flights_MI u 1:6 w lp pt 8 ps 0.5 t 'optimized'
set title 'adult: I_MI' noenhanced
set xlabel 'true value'
set logscale y
plot $adult_MI u 1:2 w lp pt 4 ps 0.5 t 'baseline1', $adult_MI u 1:3 w lp pt 5 ps 0.5 t 'baseline2', $adult_MI u 1:4 w lp pt 6 ps 0.5 t 'basic', $adult_MI u 1:5 w lp pt 7 ps 0.5 t 'hierarchical', $adult_MI u 1:6 w lp pt 8 ps 0.5 t 'optimized'
unset multiplot
