"""Written by `make seeds` (experiments/fresh_seeds.py): the training page's
two models trained for 100 seeds that the page does not show. "runs", a seed
a line: the accuracy of two heads of width 2 and of one head of width 4 on
the two lookups (previous value, value at the largest key feature), which
head (1 or 2) took the previous-token lookup, and whether removing each head
breaks its own lookup and keeps the other (the ablation page's crossing
pattern), with the head zeroed and set to its mean. "broken": the claims of
the page that a seed breaks, for the seeds that break any. "first set-up":
the two heads of the page's first version (circle places, batch 128, learning
rate 0.05) on the same seeds, and the most that any head put on the previous
position. "designs": for each design of the next page (Heads against width
and depth), in how many seeds it is accurate on the previous value, on the
value at the largest key feature, and on both; each seed's record is in
snippets/width_and_depth/design_results.py."""


def by_seed(text):
    """seed -> {column: value}, from a table whose first line names the
    columns; "yes" and "no" are True and False, the rest numbers."""
    yes_no = {"yes": True, "no": False}
    names, *lines = text.strip().splitlines()
    table = {}
    for line in lines:
        seed, *cells = line.split()
        values = [yes_no[c] if c in yes_no else float(c) for c in cells]
        table[int(seed)] = dict(zip(names.split()[1:], values, strict=True))
    return table


seed_results = {
    "code": "72619590360277d0",  # its code_key()
    "seeds": (2000, 2100),  # range(start, stop)
    "made": {  # machine()
        "kernels": {
            "MKL_CBWR": "COMPATIBLE",
            "MKL_ENABLE_INSTRUCTIONS": None,
            "ATEN_CPU_CAPABILITY": "default",
        },
        "capability": "DEFAULT",
        "cpu": "AMD EPYC",
        "torch": "2.13.0+cpu",
        "date": "2026-12-06",
    },
    "runs": by_seed("""
        seed two_prev two_key one_prev one_key   head crossing crossing_mean
        2000   1.0000  0.9503   0.1018  0.9489      2      yes           yes
        2001   1.0000  0.9512   0.9135  0.1005      2      yes           yes
        2002   1.0000  0.9504   0.1010  0.9487      2      yes           yes
        2003   1.0000  0.9500   0.8878  0.1013      1      yes           yes
        2004   1.0000  0.9531   0.8889  0.1013      2      yes           yes
        2005   1.0000  0.9539   0.1012  0.9471      1      yes           yes
        2006   1.0000  0.9537   0.1021  0.9472      1      yes           yes
        2007   1.0000  0.9467   0.8888  0.1010      2      yes           yes
        2008   1.0000  0.9510   0.9017  0.1009      1      yes           yes
        2009   1.0000  0.9522   0.1013  0.9475      2      yes           yes
        2010   1.0000  0.9506   0.9174  0.1010      2      yes           yes
        2011   1.0000  0.9436   0.1012  0.9449      2      yes           yes
        2012   1.0000  0.9458   0.9272  0.1010      2      yes           yes
        2013   1.0000  0.9469   0.1012  0.9447      1      yes           yes
        2014   1.0000  0.9494   0.8693  0.1014      2      yes           yes
        2015   1.0000  0.9479   0.9213  0.1007      1      yes           yes
        2016   1.0000  0.9579   0.9178  0.1005      1      yes           yes
        2017   1.0000  0.9484   0.9210  0.1003      2      yes           yes
        2018   1.0000  0.9479   0.9175  0.1010      2      yes           yes
        2019   1.0000  0.9546   0.9246  0.1003      2      yes           yes
        2020   1.0000  0.9500   0.9382  0.1008      2      yes           yes
        2021   1.0000  0.9563   0.8853  0.1009      2      yes           yes
        2022   1.0000  0.9473   0.9114  0.1008      2      yes           yes
        2023   1.0000  0.9626   0.9195  0.1005      1      yes           yes
        2024   1.0000  0.9536   0.8906  0.1015      2      yes           yes
        2025   1.0000  0.9523   0.9035  0.1006      1      yes           yes
        2026   1.0000  0.9499   0.9323  0.1003      1      yes           yes
        2027   1.0000  0.9614   0.9079  0.1007      2      yes           yes
        2028   1.0000  0.9475   0.1014  0.9491      1      yes           yes
        2029   1.0000  0.9497   0.8954  0.1010      2      yes           yes
        2030   1.0000  0.9443   0.9011  0.1004      2      yes           yes
        2031   1.0000  0.9456   0.9281  0.1000      2      yes           yes
        2032   1.0000  0.9452   0.9208  0.1007      1      yes           yes
        2033   1.0000  0.9490   0.9019  0.1010      2      yes           yes
        2034   1.0000  0.9475   0.9510  0.1004      2      yes           yes
        2035   1.0000  0.9602   0.8785  0.1007      2      yes           yes
        2036   1.0000  0.9572   0.8864  0.1014      2      yes           yes
        2037   1.0000  0.9584   0.1010  0.9449      2      yes           yes
        2038   1.0000  0.9481   0.9094  0.1005      2      yes           yes
        2039   1.0000  0.9517   0.1013  0.9525      1      yes           yes
        2040   1.0000  0.9562   0.9037  0.1006      1      yes           yes
        2041   1.0000  0.9494   0.8968  0.1013      1      yes           yes
        2042   1.0000  0.9524   0.9032  0.1012      1      yes           yes
        2043   1.0000  0.9600   0.9005  0.1004      2      yes           yes
        2044   1.0000  0.9490   0.8938  0.1010      2      yes           yes
        2045   1.0000  0.9479   0.1014  0.9455      1       no           yes
        2046   1.0000  0.9504   0.9139  0.1012      1      yes           yes
        2047   1.0000  0.9516   0.1017  0.9541      2      yes           yes
        2048   1.0000  0.9474   0.9026  0.1013      2      yes           yes
        2049   1.0000  0.9545   0.8739  0.1019      1      yes           yes
        2050   1.0000  0.9496   0.1011  0.9515      2      yes           yes
        2051   1.0000  0.9567   0.8995  0.1006      2      yes           yes
        2052   1.0000  0.9485   0.1019  0.9510      1      yes           yes
        2053   0.9936  0.9439   0.9294  0.1005      2      yes           yes
        2054   1.0000  0.9460   0.9280  0.1012      1      yes           yes
        2055   1.0000  0.9468   0.9250  0.1006      1      yes           yes
        2056   1.0000  0.9493   0.8978  0.1010      2      yes           yes
        2057   1.0000  0.9498   0.8937  0.1007      1      yes           yes
        2058   1.0000  0.9535   0.9150  0.1011      2      yes           yes
        2059   1.0000  0.9478   0.1016  0.9550      1      yes           yes
        2060   1.0000  0.9508   0.9101  0.1012      1      yes           yes
        2061   1.0000  0.9519   0.9206  0.0999      2      yes           yes
        2062   1.0000  0.9490   0.9271  0.0998      1      yes           yes
        2063   1.0000  0.9606   0.8794  0.1012      2      yes           yes
        2064   1.0000  0.9551   0.9255  0.0997      2      yes           yes
        2065   1.0000  0.9517   0.8899  0.1008      1      yes           yes
        2066   1.0000  0.9518   0.1010  0.9438      2      yes           yes
        2067   1.0000  0.9487   0.1015  0.9475      1       no           yes
        2068   1.0000  0.9524   0.8864  0.1009      2      yes           yes
        2069   1.0000  0.9567   0.8918  0.1014      1      yes           yes
        2070   1.0000  0.9535   0.9159  0.1006      1      yes           yes
        2071   1.0000  0.9515   0.8989  0.1004      1      yes           yes
        2072   1.0000  0.9526   0.9042  0.1011      1      yes           yes
        2073   1.0000  0.9433   0.1011  0.9460      1      yes           yes
        2074   1.0000  0.9573   0.8775  0.1005      1      yes           yes
        2075   1.0000  0.9526   0.1017  0.9468      2      yes           yes
        2076   1.0000  0.9517   0.9367  0.1008      2      yes           yes
        2077   1.0000  0.9445   0.9033  0.1010      2      yes           yes
        2078   1.0000  0.9539   0.8746  0.1016      1      yes           yes
        2079   1.0000  0.9514   0.8905  0.1014      2      yes           yes
        2080   1.0000  0.9535   0.1007  0.9490      2      yes           yes
        2081   1.0000  0.9521   0.1011  0.9480      1      yes           yes
        2082   1.0000  0.9540   0.9172  0.1005      2      yes           yes
        2083   1.0000  0.9561   0.9215  0.1007      2      yes           yes
        2084   1.0000  0.9512   0.8786  0.1009      2      yes           yes
        2085   1.0000  0.9563   0.9343  0.1000      1      yes           yes
        2086   1.0000  0.9479   0.9255  0.1000      1      yes           yes
        2087   1.0000  0.9570   0.1018  0.9486      1      yes           yes
        2088   1.0000  0.9485   0.8851  0.1011      1      yes           yes
        2089   1.0000  0.9534   0.8923  0.1009      2      yes           yes
        2090   1.0000  0.9518   0.9252  0.1004      1      yes           yes
        2091   1.0000  0.9533   0.9127  0.1012      1      yes           yes
        2092   1.0000  0.9565   0.8984  0.1009      1      yes           yes
        2093   1.0000  0.9572   0.9167  0.1002      1      yes           yes
        2094   1.0000  0.9578   0.9537  0.0997      2      yes           yes
        2095   1.0000  0.9502   0.9156  0.1001      1      yes           yes
        2096   1.0000  0.9572   0.8885  0.1012      2      yes           yes
        2097   1.0000  0.9497   0.1013  0.9474      2      yes           yes
        2098   1.0000  0.9536   0.8973  0.1008      1      yes           yes
        2099   1.0000  0.9509   0.9006  0.1016      2      yes           yes
    """),
    "broken": {
        2053: ["no separate head for each of the two lookups"],
    },
    "broken, one head": {},
    "first set-up": by_seed("""
        seed two_prev two_key most_on_prev
        2000   1.0000  0.9174       0.9823
        2001   1.0000  0.8977       0.9846
        2002   1.0000  0.9129       0.9831
        2003   1.0000  0.8382       0.9738
        2004   1.0000  0.8822       0.9814
        2005   0.4185  0.9087       0.3854
        2006   1.0000  0.9086       0.9820
        2007   0.4202  0.9032       0.3853
        2008   1.0000  0.9159       0.9845
        2009   1.0000  0.8788       0.9817
        2010   1.0000  0.9025       0.9828
        2011   1.0000  0.9023       0.9808
        2012   1.0000  0.9064       0.9875
        2013   1.0000  0.9039       0.9812
        2014   1.0000  0.9170       0.9841
        2015   0.4387  0.9017       0.3852
        2016   1.0000  0.9062       0.9840
        2017   1.0000  0.9071       0.9827
        2018   1.0000  0.9028       0.9839
        2019   1.0000  0.8964       0.9836
        2020   1.0000  0.8566       0.9777
        2021   0.4380  0.8899       0.3855
        2022   1.0000  0.9088       0.9833
        2023   0.9901  0.1167       0.8677
        2024   0.4243  0.9055       0.3853
        2025   1.0000  0.9014       0.9833
        2026   0.4188  0.9140       0.3852
        2027   1.0000  0.8560       0.9804
        2028   0.4436  0.9152       0.3848
        2029   0.4393  0.9110       0.3854
        2030   0.4197  0.9117       0.3855
        2031   0.4144  0.9069       0.3855
        2032   1.0000  0.8871       0.9821
        2033   1.0000  0.9126       0.9823
        2034   1.0000  0.8879       0.9809
        2035   1.0000  0.8817       0.9825
        2036   1.0000  0.9071       0.9805
        2037   1.0000  0.8832       0.9789
        2038   1.0000  0.9074       0.9834
        2039   1.0000  0.8957       0.9811
        2040   1.0000  0.9081       0.9840
        2041   1.0000  0.8584       0.9828
        2042   1.0000  0.8477       0.9823
        2043   1.0000  0.9026       0.9880
        2044   1.0000  0.9008       0.9831
        2045   1.0000  0.9182       0.9856
        2046   1.0000  0.9027       0.9807
        2047   1.0000  0.8817       0.9821
        2048   0.4336  0.9089       0.3855
        2049   1.0000  0.9056       0.9818
        2050   1.0000  0.8907       0.9846
        2051   1.0000  0.9042       0.9860
        2052   1.0000  0.8922       0.9814
        2053   0.4153  0.9033       0.3856
        2054   0.4174  0.9111       0.3856
        2055   1.0000  0.9084       0.9855
        2056   1.0000  0.9052       0.9861
        2057   1.0000  0.9052       0.9853
        2058   1.0000  0.9015       0.9821
        2059   0.4357  0.9032       0.3853
        2060   1.0000  0.9067       0.9825
        2061   1.0000  0.8951       0.9809
        2062   1.0000  0.8980       0.9803
        2063   1.0000  0.8185       0.9684
        2064   1.0000  0.9049       0.9853
        2065   1.0000  0.9094       0.9824
        2066   0.4109  0.8855       0.3856
        2067   1.0000  0.8875       0.9808
        2068   1.0000  0.8489       0.9742
        2069   1.0000  0.8975       0.9795
        2070   0.4146  0.8829       0.3856
        2071   1.0000  0.8966       0.9821
        2072   0.4444  0.9150       0.3852
        2073   1.0000  0.9138       0.9842
        2074   1.0000  0.8202       0.9687
        2075   1.0000  0.9067       0.9841
        2076   1.0000  0.9077       0.9852
        2077   1.0000  0.9042       0.9828
        2078   1.0000  0.8820       0.9814
        2079   1.0000  0.9128       0.9854
        2080   1.0000  0.9072       0.9840
        2081   1.0000  0.8300       0.9699
        2082   1.0000  0.9102       0.9807
        2083   0.4451  0.9123       0.3849
        2084   0.4178  0.9073       0.3854
        2085   1.0000  0.9086       0.9837
        2086   0.4223  0.8988       0.3857
        2087   0.4169  0.9072       0.3854
        2088   1.0000  0.9067       0.9828
        2089   1.0000  0.9032       0.9824
        2090   1.0000  0.9023       0.9832
        2091   0.4266  0.9092       0.3849
        2092   1.0000  0.9206       0.9839
        2093   0.4159  0.9023       0.3855
        2094   1.0000  0.8923       0.9786
        2095   1.0000  0.9148       0.9828
        2096   1.0000  0.9141       0.9821
        2097   1.0000  0.8421       0.9791
        2098   1.0000  0.9031       0.9855
        2099   1.0000  0.9178       0.9841
    """),
    "broken, first set-up": {
        2003: ["two heads are not accurate on both outputs"],
        2005: [
            "two heads are not accurate on both outputs",
            "no separate head for each of the two lookups",
        ],
        2007: [
            "two heads are not accurate on both outputs",
            "no separate head for each of the two lookups",
        ],
        2015: [
            "two heads are not accurate on both outputs",
            "no separate head for each of the two lookups",
        ],
        2021: [
            "two heads are not accurate on both outputs",
            "no separate head for each of the two lookups",
        ],
        2023: [
            "two heads are not accurate on both outputs",
            "the heads do not end apart",
            "no separate head for each of the two lookups",
        ],
        2024: [
            "two heads are not accurate on both outputs",
            "no separate head for each of the two lookups",
        ],
        2026: [
            "two heads are not accurate on both outputs",
            "no separate head for each of the two lookups",
        ],
        2028: [
            "two heads are not accurate on both outputs",
            "no separate head for each of the two lookups",
        ],
        2029: [
            "two heads are not accurate on both outputs",
            "no separate head for each of the two lookups",
        ],
        2030: [
            "two heads are not accurate on both outputs",
            "no separate head for each of the two lookups",
        ],
        2031: [
            "two heads are not accurate on both outputs",
            "no separate head for each of the two lookups",
        ],
        2042: ["two heads are not accurate on both outputs"],
        2048: [
            "two heads are not accurate on both outputs",
            "no separate head for each of the two lookups",
        ],
        2053: [
            "two heads are not accurate on both outputs",
            "no separate head for each of the two lookups",
        ],
        2054: [
            "two heads are not accurate on both outputs",
            "no separate head for each of the two lookups",
        ],
        2059: [
            "two heads are not accurate on both outputs",
            "no separate head for each of the two lookups",
        ],
        2063: ["two heads are not accurate on both outputs"],
        2066: [
            "two heads are not accurate on both outputs",
            "no separate head for each of the two lookups",
        ],
        2068: ["two heads are not accurate on both outputs"],
        2070: [
            "two heads are not accurate on both outputs",
            "no separate head for each of the two lookups",
        ],
        2072: [
            "two heads are not accurate on both outputs",
            "no separate head for each of the two lookups",
        ],
        2074: ["two heads are not accurate on both outputs"],
        2081: ["two heads are not accurate on both outputs"],
        2083: [
            "two heads are not accurate on both outputs",
            "no separate head for each of the two lookups",
        ],
        2084: [
            "two heads are not accurate on both outputs",
            "no separate head for each of the two lookups",
        ],
        2086: [
            "two heads are not accurate on both outputs",
            "no separate head for each of the two lookups",
        ],
        2087: [
            "two heads are not accurate on both outputs",
            "no separate head for each of the two lookups",
        ],
        2091: [
            "two heads are not accurate on both outputs",
            "no separate head for each of the two lookups",
        ],
        2093: [
            "two heads are not accurate on both outputs",
            "no separate head for each of the two lookups",
        ],
        2097: ["two heads are not accurate on both outputs"],
    },
    "designs": {  # on the previous value, the largest key, both
        "1 x 4": (77, 23, 0),
        "2 x 2": (100, 100, 100),
        "4 x 1": (50, 100, 50),
        "2 x 1": (0, 86, 0),
        "1 x 8": (5, 15, 0),
        "1 layer": (65, 35, 0),
        "2 layers": (89, 95, 86),
        "2 x 2 on stream": (96, 99, 95),
    },
}
