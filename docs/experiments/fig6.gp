set terminal png size 1050,340 font 'DejaVuSans,8'
set output 'fig6.png'
set termoption noenhanced
set key font ',7' samplen 2
set grid
set xtics rotate by 30 right
set format y '%g'
$e_stock_MI << EOD
0.1 0.521277 0.521277
0.2 0.217021 0.161982
0.5 0.138298 0.276637
1 0.106383 0.12977
2 0.125532 0.221614
3 0.0680851 0.0940993
5 0.0531915 0.0319149
EOD
$e_tax_MI << EOD
0.1 0.885009 0.423796
0.2 0.632037 0.380918
0.5 0.389616 0.353394
1 0.464261 0.402617
2 0.112689 0.0791505
3 0.234978 0.358165
5 0.0418123 0.0687424
EOD
$e_hospital_MI << EOD
0.1 0.894718 0.142862
0.2 0.933191 0.433421
0.5 0.740186 0.299629
1 0.699714 0.380477
2 0.53576 0.408633
3 0.396217 0.368095
5 0.337116 0.385462
EOD
$e_flights_MI << EOD
0.1 0.759802 0.344007
0.2 0.782184 0.256719
0.5 0.214591 0.381357
1 0.0337533 0.0891401
2 0.00773165 0.00493168
3 0.00480805 0.00594066
5 0.00200291 0.0016136
EOD
$e_adult_MI << EOD
0.1 0.879766 0.164894
0.2 0.575706 0.376678
0.5 0.603209 0.333929
1 0.337813 0.255801
2 0.287046 0.187957
3 0.149279 0.0818802
5 0.122324 0.0543577
EOD
$e_stock_P << EOD
0.1 2.11758 5.11617
0.2 0.184615 0.178266
0.5 0.0637363 0.0463106
1 0.0582418 0.0501296
2 0.0175824 0.0149062
3 0.0263736 0.0226278
5 0.0153846 0.0112066
EOD
$e_tax_P << EOD
0.1 0.82612 0.235256
0.2 0.695721 0.319681
0.5 0.591286 0.395091
1 0.566953 0.408702
2 0.301843 0.384773
3 0.204067 0.349338
5 0.0391018 0.0171882
EOD
$e_hospital_P << EOD
0.1 0.8145 0.10466
0.2 2.75213 5.64352
0.5 0.67525 0.304071
1 0.816625 0.0886373
2 0.793625 0.176177
3 0.659625 0.331262
5 0.54175 0.356569
EOD
$e_flights_P << EOD
0.1 0.449239 0.136513
0.2 0.685597 0.662739
0.5 0.445375 0.0540706
1 0.392037 0.145188
2 0.359895 0.161778
3 0.386475 0.0563051
5 0.280796 0.170561
EOD
$e_adult_P << EOD
0.1 1.00701 0.133053
0.2 0.79518 0.329197
0.5 0.69616 0.284365
1 0.72493 0.286598
2 0.52592 0.314106
3 0.8038 0.316825
5 0.86565 0.149071
EOD
$e_stock_R << EOD
0.1 0.456667 0.261923
0.2 0.0488889 0.0484832
0.5 0.0155556 0.0173561
1 0.0166667 0.0142725
2 0.0111111 0.00993808
3 0.0122222 0.0168142
5 0.0001 0
EOD
$e_tax_R << EOD
0.1 0.0360248 0.0351
0.2 0.018323 0.013025
0.5 0.0052795 0.00368768
1 0.00186335 0.000931677
2 0.000931677 0.00124224
3 0.000931677 0.00158355
5 0.000465839 0.000994274
EOD
$e_hospital_R << EOD
0.1 0.447297 0.450446
0.2 0.128378 0.166304
0.5 0.0513514 0.0376443
1 0.027027 0.019111
2 0.0189189 0.0284747
3 0.00540541 0.00662024
5 0.0027027 0.00810811
EOD
$e_flights_R << EOD
0.1 0.0402778 0.0343997
0.2 0.0106481 0.00931407
0.5 0.00428241 0.00471706
1 0.00243056 0.00261123
2 0.000694444 0.000567012
3 0.000462963 0.000767737
5 0.0001 0
EOD
$e_adult_R << EOD
0.1 0.0807339 0.0471027
0.2 0.0417431 0.0334233
0.5 0.0183486 0.0190243
1 0.00917431 0.00680385
2 0.00504587 0.00381038
3 0.00458716 0.0054276
5 0.000458716 0.00137615
EOD
set multiplot layout 1,3 title 'Figure 6: relative error vs epsilon, RNoise 0.005 (optimized / vertex cover)'
set title 'I_MI' noenhanced
set xlabel 'epsilon'
set logscale x
unset logscale y
set yrange [0:*]
plot $e_stock_MI u 1:2:3 w yerrorlines pt 4 ps 0.6 t 'stock', $e_tax_MI u 1:2:3 w yerrorlines pt 5 ps 0.6 t 'tax', $e_hospital_MI u 1:2:3 w yerrorlines pt 6 ps 0.6 t 'hospital', $e_flights_MI u 1:2:3 w yerrorlines pt 7 ps 0.6 t 'flights', $e_adult_MI u 1:2:3 w yerrorlines pt 8 ps 0.6 t 'adult'
set title 'I_P' noenhanced
set xlabel 'epsilon'
set logscale x
unset logscale y
set yrange [0:*]
plot $e_stock_P u 1:2:3 w yerrorlines pt 4 ps 0.6 t 'stock', $e_tax_P u 1:2:3 w yerrorlines pt 5 ps 0.6 t 'tax', $e_hospital_P u 1:2:3 w yerrorlines pt 6 ps 0.6 t 'hospital', $e_flights_P u 1:2:3 w yerrorlines pt 7 ps 0.6 t 'flights', $e_adult_P u 1:2:3 w yerrorlines pt 8 ps 0.6 t 'adult'
set title 'I_R vs the non-private greedy cover (log y)' noenhanced
set xlabel 'epsilon'
set logscale x
set logscale y
set yrange [*:*]
plot $e_stock_R u 1:2:3 w yerrorlines pt 4 ps 0.6 t 'stock', $e_tax_R u 1:2:3 w yerrorlines pt 5 ps 0.6 t 'tax', $e_hospital_R u 1:2:3 w yerrorlines pt 6 ps 0.6 t 'hospital', $e_flights_R u 1:2:3 w yerrorlines pt 7 ps 0.6 t 'flights', $e_adult_R u 1:2:3 w yerrorlines pt 8 ps 0.6 t 'adult'
unset multiplot
