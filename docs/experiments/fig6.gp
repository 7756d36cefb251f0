set terminal pngcairo size 1400,520 font 'DejaVu Sans,8'
set output 'fig6.png'
set termoption noenhanced
set key font ',7' samplen 3
set grid
set xtics rotate by 30 right
set format y '%g'
$e0_stock_optimized << EOD
0.1 0.985106 2.03015
0.2 2.16809 4.33318
0.5 0.197872 0.28451
1 0.180851 0.338191
2 0.0638298 0.0724655
3 0.0382979 0.00851064
5 0.0319149 0.0196161
EOD
$e0_stock_gem << EOD
0.1 0.47234 0.419403
0.2 0.26383 0.171854
0.5 0.0957447 0.0966857
1 0.0468085 0.0229156
2 0.0531915 0.0142728
3 0.0319149 0.021802
5 0.0234043 0.0222134
EOD
$e0_tax_optimized << EOD
0.1 0.751837 0.359045
0.2 0.479256 0.376897
0.5 0.776377 0.330208
1 0.208718 0.253328
2 0.0940864 0.0859126
3 0.0555859 0.065251
5 0.0430176 0.0683975
EOD
$e0_tax_gem << EOD
0.1 0.640369 0.382274
0.2 0.29347 0.263312
0.5 0.0985567 0.0634712
1 0.0628842 0.0634162
2 0.0657474 0.0548842
3 0.05181 0.0483144
5 0.0239273 0.0194039
EOD
$e0_hospital_optimized << EOD
0.1 0.963098 0.0759124
0.2 0.84454 0.227316
0.5 0.756317 0.263702
1 0.864168 0.166249
2 0.510921 0.386632
3 0.385867 0.3955
5 0.178801 0.315737
EOD
$e0_hospital_gem << EOD
0.1 0.776802 0.322609
0.2 0.957031 0.0258103
0.5 0.707066 0.212233
1 0.400785 0.323154
2 0.261527 0.284639
3 0.0698073 0.0395908
5 0.059743 0.0396027
EOD
$e0_flights_optimized << EOD
0.1 0.656911 0.394584
0.2 0.575561 0.397729
0.5 0.169127 0.301559
1 0.037183 0.0736228
2 0.00355893 0.00361393
3 0.00215905 0.00193971
5 0.00246056 0.00246263
EOD
$e0_flights_gem << EOD
0.1 0.26888 0.179405
0.2 0.152404 0.139457
0.5 0.0715339 0.042151
1 0.0182415 0.0311403
2 0.0107737 0.0132177
3 0.00376891 0.00275393
5 0.00244979 0.00227658
EOD
$e0_adult_optimized << EOD
0.1 0.798332 0.27364
0.2 0.681878 0.403499
0.5 0.771075 0.26021
1 0.299812 0.265753
2 0.147677 0.0810398
3 0.119365 0.0493423
5 0.0925562 0.037838
EOD
$e0_adult_gem << EOD
0.1 0.870262 0.274378
0.2 0.966157 0.0537682
0.5 0.524709 0.201766
1 0.191203 0.179698
2 0.098087 0.0659043
3 0.0880456 0.0578524
5 0.0252663 0.036302
EOD
$e1_stock_optimized << EOD
0.1 5.92637 16.1597
0.2 0.830769 1.10064
0.5 0.0505495 0.0291571
1 0.0835165 0.140229
2 0.0692308 0.113783
3 0.0285714 0.01916
5 0.0142857 0.0070364
EOD
$e1_stock_gem << EOD
0.1 0.457143 0.59174
0.2 0.202198 0.171527
0.5 0.123077 0.1574
1 0.0340659 0.0227608
2 0.0131868 0.0168816
3 0.0164835 0.0319438
5 0.0032967 0.0050358
EOD
$e1_tax_optimized << EOD
0.1 2.29443 3.37953
0.2 0.833739 0.265573
0.5 0.748263 0.281775
1 0.668249 0.331626
2 0.379879 0.401055
3 0.288024 0.381392
5 0.207932 0.329829
EOD
$e1_tax_gem << EOD
0.1 0.614144 0.243034
0.2 0.275846 0.271465
0.5 0.0680036 0.102484
1 0.0409005 0.0188465
2 0.040677 0.0264434
3 0.0268126 0.0205296
5 0.0108033 0.0178694
EOD
$e1_hospital_optimized << EOD
0.1 2.48088 3.93323
0.2 0.77875 0.207016
0.5 0.8395 0.37171
1 0.777625 0.207662
2 0.628 0.300531
3 0.705875 0.257847
5 0.8245 0.0786154
EOD
$e1_hospital_gem << EOD
0.1 0.741 0.314222
0.2 0.7075 0.310358
0.5 1.039 0.939544
1 0.33175 0.289706
2 0.2105 0.27099
3 0.116125 0.18264
5 0.071125 0.0434937
EOD
$e1_flights_optimized << EOD
0.1 0.46856 0.0507203
0.2 0.471721 0.0483126
0.5 0.452342 0.0573694
1 0.439988 0.0504929
2 0.387002 0.141052
3 0.304215 0.152635
5 0.184251 0.207819
EOD
$e1_flights_gem << EOD
0.1 1.08618 1.99582
0.2 0.35966 0.0347679
0.5 0.372365 0.0578003
1 0.330445 0.0593529
2 0.0663349 0.0376951
3 0.0868852 0.0575388
5 0.0448478 0.0396039
EOD
$e1_adult_optimized << EOD
0.1 0.99572 0.0560338
0.2 1.48632 1.0934
0.5 0.70095 0.350634
1 0.86114 0.230041
2 0.85882 0.248065
3 0.63239 0.3794
5 0.67513 0.263537
EOD
$e1_adult_gem << EOD
0.1 0.9369 0.0548586
0.2 0.78245 0.246687
0.5 0.11251 0.221232
1 0.02215 0.0213552
2 0.09241 0.254797
3 0.00706 0.00514649
5 0.00657 0.00262032
EOD
$e2_stock_vertex_cover << EOD
0.1 0.235556 0.153864
0.2 0.0955556 0.0789124
0.5 0.0244444 0.030952
1 0.0177778 0.0150718
2 0.00888889 0.0108866
3 0.00666667 0.00544331
5 0.00111111 0.00333333
EOD
$e2_tax_vertex_cover << EOD
0.1 0.0360248 0.028112
0.2 0.0068323 0.00461679
0.5 0.00745342 0.00996212
1 0.00512422 0.00439471
2 0.00124224 0.00116201
3 0.000931677 0.00124224
5 0.000310559 0.000621118
EOD
$e2_hospital_vertex_cover << EOD
0.1 0.313514 0.32358
0.2 0.205405 0.158725
0.5 0.0702703 0.0539864
1 0.0202703 0.0162724
2 0.0148649 0.0175676
3 0.00675676 0.00906514
5 0.0027027 0.00540541
EOD
$e2_flights_vertex_cover << EOD
0.1 0.0252315 0.0178166
0.2 0.0172454 0.014626
0.5 0.003125 0.00231771
1 0.00300926 0.002797
2 0.000925926 0.001009
3 0.00104167 0.0010919
5 0.0001 0
EOD
$e2_adult_vertex_cover << EOD
0.1 0.083945 0.0458739
0.2 0.0344037 0.0351299
0.5 0.0165138 0.013792
1 0.0114679 0.00801112
2 0.00458716 0.0054276
3 0.00229358 0.00307716
5 0.00275229 0.00366972
EOD
$e3_stock_vertex_cover << EOD
0.1 1.09565 0.524738
0.2 0.952174 0.242428
0.5 0.934783 0.0740408
1 0.969565 0.0436951
2 0.96087 0.0271522
3 0.96087 0.0162681
5 0.958696 0.00652174
EOD
$e3_stock_cover_bound << EOD
0.1 0.278261 0.291629
0.2 0.18913 0.136473
0.5 0.0173913 0.0212999
1 0.0217391 0.013749
2 0.00652174 0.00996212
3 0.00869565 0.0144201
5 0.0001 0
EOD
$e3_stock_exact << EOD
0.1 0.2 0.268863
0.2 0.0891304 0.123531
0.5 0.05 0.0435326
1 0.0195652 0.026536
2 0.0001 0
3 0.00217391 0.00652174
5 0.0001 0
EOD
$e3_tax_vertex_cover << EOD
0.1 0.993789 0.0911796
0.2 0.998758 0.016445
0.5 1 0.0248835
1 1.00404 0.0128835
2 1 0.003402
3 0.998758 0.00284632
5 1 0.00138886
EOD
$e3_tax_cover_bound << EOD
0.1 0.0254658 0.0182042
0.2 0.013354 0.0112874
0.5 0.00652174 0.00509355
1 0.00310559 0.00367458
2 0.00124224 0.00152142
3 0.0001 0
5 0.0001 0
EOD
$e3_tax_exact << EOD
0.1 0.0186335 0.0220037
0.2 0.00652174 0.0052795
0.5 0.00403727 0.00461679
1 0.00434783 0.00345824
2 0.000310559 0.000931677
3 0.0001 0
5 0.0001 0
EOD
$e3_hospital_vertex_cover << EOD
0.1 1.09189 0.896401
0.2 0.881081 0.505369
0.5 0.994595 0.177146
1 1.0027 0.0519172
2 1.01892 0.0419572
3 0.991892 0.0211088
5 1 0.0120869
EOD
$e3_hospital_cover_bound << EOD
0.1 0.183784 0.132845
0.2 0.164865 0.132101
0.5 0.0540541 0.0628051
1 0.0297297 0.0390725
2 0.0108108 0.0179277
3 0.0027027 0.00810811
5 0.0001 0
EOD
$e3_hospital_exact << EOD
0.1 0.321622 0.201329
0.2 0.0756757 0.078145
0.5 0.0621622 0.0755307
1 0.0216216 0.0235616
2 0.00540541 0.0108108
3 0.0001 0
5 0.0001 0
EOD
$e3_flights_vertex_cover << EOD
0.1 0.692247 0.0465548
0.2 0.736581 0.0339402
0.5 0.715507 0.00631506
1 0.715706 0.00677113
2 0.716899 0.00221382
3 0.717097 0.00252258
5 0.717694 1.11022e-16
EOD
$e3_flights_cover_bound << EOD
0.1 0.0365805 0.0146147
0.2 0.0457256 0.0130972
0.5 0.0477137 0.00819703
1 0.0419483 0.00313712
2 0.0441352 0.00119284
3 0.0439364 0.000596421
5 0.0437376 0
EOD
$e3_flights_exact << EOD
0.1 0.016501 0.0193171
0.2 0.00795229 0.0089794
0.5 0.00258449 0.00178926
1 0.00159046 0.00148774
2 0.000994036 0.00133364
3 0.000198807 0.000596421
5 0.0001 0
EOD
$e3_adult_vertex_cover << EOD
0.1 1.04862 0.185042
0.2 1.01009 0.0978216
0.5 0.987156 0.0410698
1 1.00459 0.0275993
2 1 0.0142128
3 0.999083 0.00762076
5 1.00183 0.00898895
EOD
$e3_adult_cover_bound << EOD
0.1 0.123853 0.0684394
0.2 0.0376147 0.041121
0.5 0.0119266 0.0164371
1 0.0100917 0.00865503
2 0.00366972 0.00608555
3 0.000917431 0.00275229
5 0.000917431 0.00275229
EOD
$e3_adult_exact << EOD
0.1 0.0853211 0.0687829
0.2 0.0504587 0.0323712
0.5 0.0238532 0.0296431
1 0.00917431 0.01005
2 0.00366972 0.00608555
3 0.00183486 0.00366972
5 0.0001 0
EOD
set key below maxrows 4
set multiplot layout 1,4 title 'Figure 6: relative error vs epsilon, RNoise 0.005: paper methods solid, dpq defaults dashed (exact dotted)'
set title 'I_MI (log y)' noenhanced
set xlabel 'epsilon'
set logscale x
set logscale y
set yrange [*:*]
plot $e0_stock_optimized u 1:2 w lp pt 7 ps 0.5 dt 1 lw 1 lc rgb '#1f77b4' t 'stock', $e0_stock_gem u 1:2 w lp pt 9 ps 0.5 dt 2 lw 2 lc rgb '#1f77b4' notitle, $e0_tax_optimized u 1:2 w lp pt 7 ps 0.5 dt 1 lw 1 lc rgb '#ff7f0e' t 'tax', $e0_tax_gem u 1:2 w lp pt 9 ps 0.5 dt 2 lw 2 lc rgb '#ff7f0e' notitle, $e0_hospital_optimized u 1:2 w lp pt 7 ps 0.5 dt 1 lw 1 lc rgb '#2ca02c' t 'hospital', $e0_hospital_gem u 1:2 w lp pt 9 ps 0.5 dt 2 lw 2 lc rgb '#2ca02c' notitle, $e0_flights_optimized u 1:2 w lp pt 7 ps 0.5 dt 1 lw 1 lc rgb '#d62728' t 'flights', $e0_flights_gem u 1:2 w lp pt 9 ps 0.5 dt 2 lw 2 lc rgb '#d62728' notitle, $e0_adult_optimized u 1:2 w lp pt 7 ps 0.5 dt 1 lw 1 lc rgb '#9467bd' t 'adult', $e0_adult_gem u 1:2 w lp pt 9 ps 0.5 dt 2 lw 2 lc rgb '#9467bd' notitle, NaN w l dt 1 lw 1 lc rgb '#000000' t 'optimized (paper)', NaN w l dt 2 lw 2 lc rgb '#000000' t 'gem (dpq default)'
set title 'I_P (log y)' noenhanced
set xlabel 'epsilon'
set logscale x
set logscale y
set yrange [*:*]
plot $e1_stock_optimized u 1:2 w lp pt 7 ps 0.5 dt 1 lw 1 lc rgb '#1f77b4' t 'stock', $e1_stock_gem u 1:2 w lp pt 9 ps 0.5 dt 2 lw 2 lc rgb '#1f77b4' notitle, $e1_tax_optimized u 1:2 w lp pt 7 ps 0.5 dt 1 lw 1 lc rgb '#ff7f0e' t 'tax', $e1_tax_gem u 1:2 w lp pt 9 ps 0.5 dt 2 lw 2 lc rgb '#ff7f0e' notitle, $e1_hospital_optimized u 1:2 w lp pt 7 ps 0.5 dt 1 lw 1 lc rgb '#2ca02c' t 'hospital', $e1_hospital_gem u 1:2 w lp pt 9 ps 0.5 dt 2 lw 2 lc rgb '#2ca02c' notitle, $e1_flights_optimized u 1:2 w lp pt 7 ps 0.5 dt 1 lw 1 lc rgb '#d62728' t 'flights', $e1_flights_gem u 1:2 w lp pt 9 ps 0.5 dt 2 lw 2 lc rgb '#d62728' notitle, $e1_adult_optimized u 1:2 w lp pt 7 ps 0.5 dt 1 lw 1 lc rgb '#9467bd' t 'adult', $e1_adult_gem u 1:2 w lp pt 9 ps 0.5 dt 2 lw 2 lc rgb '#9467bd' notitle, NaN w l dt 1 lw 1 lc rgb '#000000' t 'optimized (paper)', NaN w l dt 2 lw 2 lc rgb '#000000' t 'gem (dpq default)'
set title 'I_R vs the non-private greedy cover (log y)' noenhanced
set xlabel 'epsilon'
set logscale x
set logscale y
set yrange [*:*]
plot $e2_stock_vertex_cover u 1:2 w lp pt 7 ps 0.5 dt 1 lw 1 lc rgb '#1f77b4' t 'stock', $e2_tax_vertex_cover u 1:2 w lp pt 7 ps 0.5 dt 1 lw 1 lc rgb '#ff7f0e' t 'tax', $e2_hospital_vertex_cover u 1:2 w lp pt 7 ps 0.5 dt 1 lw 1 lc rgb '#2ca02c' t 'hospital', $e2_flights_vertex_cover u 1:2 w lp pt 7 ps 0.5 dt 1 lw 1 lc rgb '#d62728' t 'flights', $e2_adult_vertex_cover u 1:2 w lp pt 7 ps 0.5 dt 1 lw 1 lc rgb '#9467bd' t 'adult', NaN w l dt 1 lw 1 lc rgb '#000000' t 'vertex_cover (paper)'
set title 'I_R vs the exact minimum cover (log y)' noenhanced
set xlabel 'epsilon'
set logscale x
set logscale y
set yrange [*:*]
plot $e3_stock_vertex_cover u 1:2 w lp pt 7 ps 0.5 dt 1 lw 1 lc rgb '#1f77b4' t 'stock', $e3_stock_cover_bound u 1:2 w lp pt 9 ps 0.5 dt 2 lw 2 lc rgb '#1f77b4' notitle, $e3_stock_exact u 1:2 w lp pt 11 ps 0.5 dt 3 lw 2 lc rgb '#1f77b4' notitle, $e3_tax_vertex_cover u 1:2 w lp pt 7 ps 0.5 dt 1 lw 1 lc rgb '#ff7f0e' t 'tax', $e3_tax_cover_bound u 1:2 w lp pt 9 ps 0.5 dt 2 lw 2 lc rgb '#ff7f0e' notitle, $e3_tax_exact u 1:2 w lp pt 11 ps 0.5 dt 3 lw 2 lc rgb '#ff7f0e' notitle, $e3_hospital_vertex_cover u 1:2 w lp pt 7 ps 0.5 dt 1 lw 1 lc rgb '#2ca02c' t 'hospital', $e3_hospital_cover_bound u 1:2 w lp pt 9 ps 0.5 dt 2 lw 2 lc rgb '#2ca02c' notitle, $e3_hospital_exact u 1:2 w lp pt 11 ps 0.5 dt 3 lw 2 lc rgb '#2ca02c' notitle, $e3_flights_vertex_cover u 1:2 w lp pt 7 ps 0.5 dt 1 lw 1 lc rgb '#d62728' t 'flights', $e3_flights_cover_bound u 1:2 w lp pt 9 ps 0.5 dt 2 lw 2 lc rgb '#d62728' notitle, $e3_flights_exact u 1:2 w lp pt 11 ps 0.5 dt 3 lw 2 lc rgb '#d62728' notitle, $e3_adult_vertex_cover u 1:2 w lp pt 7 ps 0.5 dt 1 lw 1 lc rgb '#9467bd' t 'adult', $e3_adult_cover_bound u 1:2 w lp pt 9 ps 0.5 dt 2 lw 2 lc rgb '#9467bd' notitle, $e3_adult_exact u 1:2 w lp pt 11 ps 0.5 dt 3 lw 2 lc rgb '#9467bd' notitle, NaN w l dt 1 lw 1 lc rgb '#000000' t 'vertex_cover (paper)', NaN w l dt 2 lw 2 lc rgb '#000000' t 'cover_bound (dpq default)', NaN w l dt 3 lw 2 lc rgb '#000000' t 'exact (dpq default with exact_repair)'
unset multiplot
