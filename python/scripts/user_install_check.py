"""What a user does after `pip install "mongen[spark]"` into a fresh
environment, and nothing else installed: check a Spark DataFrame, whole
and by key. scripts/test-python.sh runs it with that environment's
Python (issue 36, item 16: the `spark` extra lacked pandas, and
mapInArrow failed with "Pandas >= 2.2.0 must be installed")."""

import os
import sys
from decimal import Decimal

os.environ.setdefault("PYSPARK_PYTHON", sys.executable)

import mongen  # noqa: E402
from mongen import spark as ms  # noqa: E402
from pyspark.sql import SparkSession  # noqa: E402

spark = (
    SparkSession.builder.master("local[2]")
    .appName("mongen-user-install")
    .config("spark.ui.enabled", "false")
    .config("spark.sql.shuffle.partitions", "3")
    .getOrCreate()
)
spark.sparkContext.setLogLevel("ERROR")
try:
    # Shuffled rows (Spark orders them by ts). The definition of req
    # holds at ts 1 and 4 only: at ts 3, n is 2^64 - 1; at ts 4, n is
    # 2^63, less than 2^63 + 1 (which a float would not tell apart).
    rows = [
        (3, "s1", True, False, Decimal(18446744073709551615)),
        (1, "s1", True, True, Decimal(10)),
        (5, "s2", False, False, Decimal(0)),
        (2, "s1", False, False, Decimal(20)),
        (4, "s2", True, False, Decimal(2**63)),
    ]
    df = spark.createDataFrame(
        rows, "ts long, session string, req boolean, ack boolean, n decimal(20,0)"
    )
    prop = "G(req -> ack)"
    defines = {"req": "req && n < 9223372036854775809"}
    [r] = ms.check(df, prop, order_by="ts", defines=defines)
    assert r["verdict"] == "violated", r
    assert [v["index"] for v in r["violations"]] == [3], r
    by_key = ms.check(df, prop, order_by="ts", partition_by="session", defines=defines)
    got = [(v["session"], v["index"]) for v in by_key.collect()]
    assert got == [("s2", 0)], got
    print(f"mongen {mongen.__name__}: mongen.spark.check works after pip install of the spark extra alone")
finally:
    spark.stop()
