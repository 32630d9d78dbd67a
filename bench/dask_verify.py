#!/usr/bin/env python3
"""``python dask_verify.py N ARCHIVE.tar...``: a Dask LocalCluster of N process workers
(one thread each) started, every archive verified on it with
``pith_tex.scale.verify_archives``, its JSON Lines printed, the cluster stopped.  For
bench/bench_scale.py, which counts the CPU time of this whole process tree."""
from __future__ import annotations

import json
import sys

from distributed import Client, LocalCluster

from pith_tex.scale import verify_archives


def main(argv) -> int:
    n, paths = int(argv[0]), argv[1:]
    with LocalCluster(n_workers=n, processes=True, threads_per_worker=1,
                      dashboard_address=None) as cluster, Client(cluster) as client:
        for line in verify_archives(client, paths):
            sys.stdout.write(json.dumps(line) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
