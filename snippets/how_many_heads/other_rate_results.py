"""Written by `make staircase` (experiments/other_rate.py): four lookups and
three heads, trained at a learning rate of 0.1 (the staircase tuned the cell
to 0.3) on the staircase's fresh seeds for the cell. "lookups": for each
lookup, its accuracy in each seed, in the order of the seeds; "test mse": each
seed's test MSE; "alone": each seed that learned all four, trained alone with
train_model, as it is and one ulp up (experiments.staircase.alone_job), which
the suite trains again and compares by staircase.compare."""

# fmt: off
other_rate_results = {
    "code": "f77ff4645760bf64",  # its code_key()
    "cell": (4, 3),  # (k lookups, h heads)
    "lr": 0.1,
    "seeds": (2000, 2050),  # range(start, stop)
    "lookups": [  # lookup -> accuracy per seed
        [
            0.107, 0.935, 0.943, 0.962, 0.989,
            0.918, 1.0, 0.924, 0.916, 0.96,
            0.905, 0.923, 0.969, 0.904, 0.897,
            0.886, 0.898, 0.941, 0.932, 1.0,
            0.917, 0.929, 0.973, 0.898, 0.92,
            0.967, 0.944, 0.964, 0.93, 0.969,
            0.936, 0.917, 0.952, 0.919, 0.91,
            0.902, 0.894, 0.968, 0.107, 0.952,
            0.94, 0.894, 0.935, 0.107, 0.956,
            0.946, 0.91, 0.106, 0.972, 0.896,
        ],
        [
            0.951, 0.956, 0.106, 0.952, 0.106,
            0.953, 0.957, 0.953, 0.949, 0.95,
            0.956, 0.957, 0.106, 0.956, 0.108,
            0.105, 0.947, 0.957, 0.948, 0.949,
            0.951, 0.107, 0.957, 0.955, 0.107,
            0.105, 0.106, 0.957, 0.96, 0.954,
            0.959, 0.107, 0.106, 0.95, 0.951,
            0.107, 0.951, 0.124, 0.945, 0.949,
            0.955, 0.951, 0.108, 0.953, 0.949,
            0.106, 0.959, 0.953, 0.955, 0.108,
        ],
        [
            0.956, 0.115, 0.96, 0.13, 0.956,
            0.117, 0.954, 0.116, 0.116, 0.95,
            0.117, 0.116, 0.955, 0.116, 0.955,
            0.956, 0.115, 0.116, 0.115, 0.954,
            0.115, 0.959, 0.128, 0.117, 0.955,
            0.96, 0.955, 0.129, 0.116, 0.115,
            0.115, 0.957, 0.954, 0.115, 0.117,
            0.954, 0.116, 0.951, 0.949, 0.116,
            0.115, 0.116, 0.955, 0.957, 0.119,
            0.956, 0.116, 0.951, 0.115, 0.954,
        ],
        [
            1.0, 0.968, 0.951, 0.957, 0.879,
            0.903, 0.105, 0.908, 0.944, 0.963,
            0.95, 0.935, 0.914, 0.927, 0.924,
            0.972, 0.955, 0.915, 0.927, 0.106,
            0.989, 0.902, 0.948, 0.931, 0.934,
            0.92, 0.921, 0.953, 0.909, 0.907,
            0.929, 0.915, 0.919, 0.94, 0.935,
            0.917, 0.957, 0.975, 1.0, 0.902,
            0.939, 0.938, 0.908, 1.0, 0.954,
            0.919, 0.947, 1.0, 0.897, 0.923,
        ],
    ],
    "test mse": [
        0.07971, 0.07866, 0.07855, 0.06798, 0.0788,
        0.07817, 0.07965, 0.0781, 0.07842, 0.00296,
        0.07828, 0.07833, 0.07865, 0.07822, 0.07833,
        0.07857, 0.07852, 0.07822, 0.07854, 0.07985,
        0.0789, 0.07821, 0.06937, 0.07828, 0.07856,
        0.0786, 0.07858, 0.06864, 0.07813, 0.07846,
        0.07829, 0.07828, 0.07856, 0.07845, 0.07829,
        0.07835, 0.07844, 0.06919, 0.07993, 0.07851,
        0.07837, 0.07839, 0.07843, 0.07967, 0.07256,
        0.07845, 0.07823, 0.07975, 0.07843, 0.07835,
    ],
    "alone": {  # seed -> its run alone, and one ulp up
        "4 3 2009": {
            "lr": 0.1,
            "record": [
                0.9591064453125,
                0.9501546025276184,
                0.9503987431526184,
                0.9615478515625,
                0.0029756352305412292,
            ],
            "nudged": [
                0.9580891728401184,
                0.9501139521598816,
                0.9503987431526184,
                0.9606119990348816,
                0.0029881885275244713,
            ],
            "early": (
                "i1vUPk3MyD4vmKc+V1+tPun9pT6bapU+wTenPg1Vij5NLI8+LriKPszR"
                "iD4wmH0+7Hl+Pkk0bz7Qu2g+hVRpPj0pWD417z4+eRhKPpAjXj5HMlg+"
                "xNxHPlAEPz5xS0A+qPc0PsBvPD7Ftyk+M206Pu2qLj693xo+g1YpPj6s"
                "Hj4TBg8+DjkVPgelEj7tm/49ah0HPqGQAz5Te/s9CLfyPYuM7j2XgvE9"
                "fwXOPWMo3D3Eyck9a6ixPYvEpz1lm5s9msCTPaz8gT3vY4E9nR9dPbxe"
                "TD2Hdy89L0chPQtwLD0sC4Y99NxgPXmgGT0AllE9UqwSPQd6Hz25lxU9"
                "cMjcPLNSFz3gi8k8XhoMPVzdBD29bsU8A+TpPAVByzxBQb88jRrXPHdC"
                "zzxrzsQ8JZGfPMKtoTwuDaI85mqlPJ0/wDzXhqo8oRCUPB/FwzzLfZE8"
                "otyUPEf1jjyBdJY88GbEPJRPUjxaXZs8u3edPAQAqjx8la48mL0XPRxm"
                "RD1/TBo9ky+QPNMOLT1tC808YxrYPA=="
            ),
            "early, nudged": (
                "i1vUPk3MyD4vmKc+V1+tPun9pT6capU+wTenPg1Vij5MLI8+L7iKPszR"
                "iD4wmH0+63l+Pkk0bz7Qu2g+hVRpPj0pWD417z4+exhKPpAjXj5HMlg+"
                "xdxHPlAEPz5zS0A+qPc0Pr9vPD7Ftyk+M206PuyqLj683xo+g1YpPj2s"
                "Hj4RBg8+DjkVPgalEj7pm/49aR0HPqCQAz5Pe/s9BLfyPYOM7j2NgvE9"
                "eAXOPVgo3D21yck9XKixPXfEpz1Pm5s9hsCTPaD8gT3cY4E9iR9dPZNe"
                "TD1/dy89f0chPdNxLD3VC4Y9QdZgPcukGT2lj1E9768SPX90Hz3FmhU9"
                "TcPcPMNSFz0wjck8rhgMPVneBD1Fa8U8HebpPBE+yzx4Qb88WBvXPEs/"
                "zzyY0MQ8VI6fPKetoTz3DaI8gGilPIxAwDzFhao8BBCUPAjGwzyvepE8"
                "Dt6UPKHzjjxRdZY8C2XEPPxPUjwQXZs8VXWdPCP9qTw4jq4857gXPTV5"
                "RD3bYRo9hzGQPGcYLT2XDc084CvYPA=="
            ),
        },
    },
}
# fmt: on
