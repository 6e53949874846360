"""Throughput of checking Arrow data and Spark DataFrames, against the
command line on the same events as CSV; run by scripts/bench-python.sh,
which prints its figures.

    python bench_scale.py EVENTS SPARK_EVENTS WORKDIR MONGEN_BIN
"""

import os
import subprocess
import sys
import time

import numpy as np
import pyarrow as pa
import pyarrow.csv as pacsv
import pyarrow.parquet as pq

import mongen

PROPERTIES = [
    "G(req -> X(ack | X ack))",
    "G(slow -> X !slow)",
    "G((req & !ack) -> F[0,4] ack)",
]
DEFINES = {"slow": "latency > 998"}


def events(n, seed, start=0):
    """n events, in order: a request is acknowledged within two events,
    latency above 998 never twice in a row (so no property is violated
    and every event is read by every monitor)."""
    rng = np.random.default_rng(seed)
    req = rng.random(n) < 0.3
    req[-1] = False
    ack = np.zeros(n, dtype=bool)
    ack[1:] = req[:-1]
    latency = rng.integers(0, 999, n)
    slow = rng.random(n) < 0.001
    slow[1:] &= ~slow[:-1]
    slow[-1] = False
    latency[slow] = 999
    return pa.table(
        {
            "ts": pa.array(np.arange(start, start + n, dtype=np.int64)),
            "req": pa.array(req),
            "ack": pa.array(ack),
            "latency": pa.array(latency),
        }
    )


def as_csv(table, path):
    """The table as CSV, Booleans as 0/1 (what logs write)."""
    out = table.set_column(1, "req", table["req"].cast(pa.int8()))
    out = out.set_column(2, "ack", out["ack"].cast(pa.int8()))
    pacsv.write_csv(out, path, pacsv.WriteOptions(include_header=True, quoting_style="none"))


def cli_check(mongen_bin, path):
    args = [mongen_bin, "check", "--json", "-q"]
    for k, v in DEFINES.items():
        args += ["--define", f"{k}={v}"]
    for p in PROPERTIES:
        args += ["-f", p]
    t = time.perf_counter()
    out = subprocess.run(args + [path], capture_output=True, text=True)
    dt = time.perf_counter() - t
    assert out.returncode == 0, out.stderr
    return dt, out.stdout


def verdicts(reports):
    return [(r["verdict"], r["events"]) for r in reports]


def main():
    n, n_spark, work, mongen_bin = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], sys.argv[4]
    os.makedirs(work, exist_ok=True)
    table = events(n, 1)
    csv_path = os.path.join(work, "events.csv")
    as_csv(table, csv_path)
    print(f"== Arrow table in memory vs `mongen check` on CSV: {n:,} events, {len(PROPERTIES)} properties")
    # The better of three runs each.
    cli = min(cli_check(mongen_bin, csv_path)[0] for _ in range(3))
    arrow = []
    for _ in range(3):
        t = time.perf_counter()
        reports = mongen.check(table, PROPERTIES, defines=DEFINES)
        arrow.append(time.perf_counter() - t)
    assert verdicts(reports) == [("holds", n)] * len(PROPERTIES), reports
    arrow = min(arrow)
    print(f"mongen check events.csv      : {n / cli / 1e6:8.1f} M events/s ({cli:.2f} s)")
    print(f"mongen.check(pyarrow.Table)  : {n / arrow / 1e6:8.1f} M events/s ({arrow:.2f} s)")
    print(f"ratio Arrow / CLI on CSV     : {cli / arrow:8.2f}x")

    # The per-partition cost of a Spark executor and of the driver.
    checker = mongen._trace_checker(PROPERTIES, DEFINES, False, 2, False, 10, None)
    part = events(1_000_000, 2)
    t = time.perf_counter()
    summary = checker.summarize(part)
    summarize = time.perf_counter() - t
    parts = 1000
    t = time.perf_counter()
    checker.combine(part.column_names, [summary] * parts, lambda ks: {}, "bench", None)
    combine = (time.perf_counter() - t) / parts
    print("== per partition (Spark)")
    print(f"summary of a partition       : {len(summary)} bytes ({len(PROPERTIES)} properties)")
    print(f"summarize 10^6 events        : {summarize * 1e3:8.1f} ms on one core ({1e6 / summarize / 1e6:.1f} M events/s)")
    print(f"driver's combine             : {combine * 1e6:8.1f} us per partition (of {parts})")

    if n_spark <= 0:
        return
    print(f"== Spark local[2] on Parquet vs `mongen check` on CSV: {n_spark:,} events")
    pq_path = os.path.join(work, "events.parquet")
    big_csv = os.path.join(work, "big.csv")
    writer = None
    step = 5_000_000
    with open(big_csv, "wb") as csv_out:
        for k, start in enumerate(range(0, n_spark, step)):
            chunk = events(min(step, n_spark - start), 100 + k, start)
            # Chunks are generated independently: a request at a chunk's
            # end is acknowledged at the next chunk's start.
            if writer is None:
                writer = pq.ParquetWriter(pq_path, chunk.schema)
            writer.write_table(chunk, row_group_size=1 << 20)
            out = chunk.set_column(1, "req", chunk["req"].cast(pa.int8()))
            out = out.set_column(2, "ack", out["ack"].cast(pa.int8()))
            pacsv.write_csv(
                out, csv_out,
                pacsv.WriteOptions(include_header=start == 0, quoting_style="none"),
            )
    writer.close()
    cli, cli_out = cli_check(mongen_bin, big_csv)
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    from pyspark.sql import SparkSession
    from mongen import spark as ms

    spark = (
        SparkSession.builder.master("local[2]")
        .config("spark.ui.enabled", "false")
        .config("spark.driver.memory", "4g")
        .getOrCreate()
    )
    spark.sparkContext.setLogLevel("ERROR")
    df = spark.read.parquet(pq_path)
    # What Spark alone spends ordering the events (no check).
    t = time.perf_counter()
    df.orderBy("ts").write.format("noop").mode("overwrite").save()
    sort = time.perf_counter() - t
    t = time.perf_counter()
    reports = ms.check(df, PROPERTIES, order_by="ts", defines=DEFINES)
    sp = time.perf_counter() - t
    t = time.perf_counter()
    table = pq.read_table(pq_path)
    single = mongen.check(table, PROPERTIES, defines=DEFINES)
    arrow_pq = time.perf_counter() - t
    want = [r["verdict"] for r in mongen.check(big_csv, PROPERTIES, defines=DEFINES)]
    assert [r["verdict"] for r in reports] == want == [r["verdict"] for r in single], (reports, want)
    assert reports[0]["events"] == n_spark
    print(f"mongen check big.csv         : {n_spark / cli / 1e6:8.1f} M events/s ({cli:.1f} s)")
    print(f"mongen.check(Parquet read)   : {n_spark / arrow_pq / 1e6:8.1f} M events/s ({arrow_pq:.1f} s, reading included)")
    print(f"mongen.spark.check, local[2] : {n_spark / sp / 1e6:8.1f} M events/s ({sp:.1f} s, sort included)")
    print(f"Spark's orderBy alone        : {n_spark / sort / 1e6:8.1f} M events/s ({sort:.1f} s, {sort / sp:.0%} of the check)")
    print(f"ratio Spark / CLI            : {cli / sp:8.2f}x")
    spark.stop()


if __name__ == "__main__":
    main()
