#!/usr/bin/python3
"""PyTorch's attention on attention-bench's inputs: the yardstick column of `./neuralpath bench`.

    /usr/bin/python3 tests/bench/torch_attention.py [--t 256,1024] [--d 64] [--masks none,causal]
                                                    [--threads N] [--repeats N] [--budget S] [--dump DIR]

What a PyTorch user writes for one head (torch 1.13 has no fused attention):
    W = softmax(Q·Kᵀ·scale + M);  O = W·V      (M: 0 or -inf above the diagonal, made beforehand)
The matrix products go to the BLAS that Debian's python3-torch loads: libblas.so.3, which
`./neuralpath bench` points at Debian's OpenBLAS through LD_LIBRARY_PATH for this run only
(scripts/openblas-for-bench.sh; the "blas" field says which library was loaded). Threads:
OPENBLAS_NUM_THREADS and torch.set_num_threads, both set by the caller to --threads. Timing as in
attention-bench: best of repeated runs after a warm-up, CPU time of the thread for one thread,
wall time for more. Prints one JSON object.
"""
import argparse
import json
import math
import os
import sys
import time

import numpy as np
import torch


def hashed_uniform(seed, n):
    """attention-bench's inputs: uniform in [-sqrt 3, sqrt 3) from lowbias32(seed * golden + i)."""
    x = (np.arange(n, dtype=np.uint32) + np.uint32((seed * 0x9E3779B9) & 0xFFFFFFFF)).astype(np.uint32)
    x ^= x >> np.uint32(16)
    x *= np.uint32(0x7FEB352D)
    x ^= x >> np.uint32(15)
    x *= np.uint32(0x846CA68B)
    x ^= x >> np.uint32(16)
    unit = (x >> np.uint32(8)).astype(np.float32) * np.float32(1.0 / 16777216.0)
    return (unit * np.float32(2.0) - np.float32(1.0)) * np.float32(1.7320508)


def loaded_blas():
    with open("/proc/self/maps") as maps:
        paths = {line.split()[-1] for line in maps if "blas" in line.lower() and "/" in line}
    return sorted(paths)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--t", default="256,1024,2048,4096")
    parser.add_argument("--d", type=int, default=64)
    parser.add_argument("--masks", default="none,causal")
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--budget", type=float, default=0.5)
    parser.add_argument("--dump", default="")
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    clock = time.thread_time if args.threads == 1 else time.perf_counter
    rows = []
    with torch.no_grad():
        for t in [int(x) for x in args.t.split(",")]:
            q, k, v = (torch.from_numpy(hashed_uniform(seed, t * args.d).reshape(t, args.d)) for seed in (1, 2, 3))
            scale = 1.0 / math.sqrt(args.d)
            for mask in args.masks.split(","):
                bias = torch.triu(torch.full((t, t), float("-inf")), diagonal=1) if mask == "causal" else None

                def attend():
                    s = torch.matmul(q, k.t()) * scale
                    if bias is not None:
                        s += bias
                    return torch.matmul(torch.softmax(s, dim=-1), v)

                out = attend()  # warm-up
                times, spent = [], 0.0
                while len(times) < args.repeats or (spent < args.budget and len(times) < 200):
                    start = clock()
                    out = attend()
                    times.append(clock() - start)
                    spent += times[-1]
                times.sort()
                flops = 4.0 * t * t * args.d * (0.5 if mask == "causal" else 1.0)
                rows.append({"t": t, "mask": mask, "kernel": "pytorch", "threads": args.threads,
                             "seconds": times[0], "median_seconds": times[len(times) // 2], "runs": len(times),
                             "gflops": flops / times[0] * 1e-9})
                if args.dump:
                    out.numpy().astype(np.float32).tofile(os.path.join(args.dump, f"pytorch-{t}-{mask}.f32"))
    json.dump({"torch": torch.__version__, "blas": loaded_blas(), "threads": args.threads, "rows": rows}, sys.stdout)
    print()


if __name__ == "__main__":
    main()
