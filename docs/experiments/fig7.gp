set terminal png size 1050,340 font 'DejaVuSans,8'
set output 'fig7.png'
set termoption noenhanced
set key font ',7' samplen 2
set grid
set xtics rotate by 30 right
set format y '%g'
$rt0 << EOD
100 0.000151347 2.1733e-05 2.944e-06 1e-06
1000 0.000549614 2.9395e-05 8.513e-06 4.877e-06
10000 0.0304403 0.0127347 0.000593349 0.00014025
50000 0.388449 0.0536939 0.0342367 0.00150125
EOD
$rt1 << EOD
100 6.8502e-05 3.635e-06 1.722e-06 1e-06
1000 0.000550775 4.9905e-05 1.1737e-05 7.782e-06
10000 0.03471 0.000824997 0.000765428 0.000196555
50000 0.632158 0.0698319 0.0564018 0.0104874
EOD
$rt2 << EOD
1 0.000162233 3.393e-05 1.342e-05 4.136e-06
2 0.000242583 3.5834e-05 1.1076e-05 4.417e-06
3 0.000293661 3.7336e-05 1.321e-05 5.088e-06
4 0.000283265 2.3184e-05 1.4252e-05 4.707e-06
5 0.00292135 5.9058e-05 8.0421e-05 1.2769e-05
6 0.0132682 0.000157757 0.000118107 3.6975e-05
EOD
set multiplot layout 1,3 title 'Figure 7: runtime at eps 1, first release on a fresh graph (2 threads for the build)'
set title 'Tax, RNoise 0.005'
set xlabel 'rows (nodes)'
set logscale x
set logscale y
set ylabel 'seconds'
plot $rt0 u 1:2 w lp t 'graph build', $rt0 u 1:3 w lp t 'I_MI', $rt0 u 1:4 w lp t 'I_P', $rt0 u 1:5 w lp t 'I_R'
set title 'Tax, RNoise 0.01'
set xlabel 'rows (nodes)'
set logscale x
set logscale y
set ylabel 'seconds'
plot $rt1 u 1:2 w lp t 'graph build', $rt1 u 1:3 w lp t 'I_MI', $rt1 u 1:4 w lp t 'I_P', $rt1 u 1:5 w lp t 'I_R'
set title 'Flights, RNoise 0.005'
set xlabel 'number of DCs'
unset logscale x
set logscale y
set ylabel 'seconds'
plot $rt2 u 1:2 w lp t 'graph build', $rt2 u 1:3 w lp t 'I_MI', $rt2 u 1:4 w lp t 'I_P', $rt2 u 1:5 w lp t 'I_R'
unset multiplot
