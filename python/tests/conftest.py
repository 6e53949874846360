"""The fixtures that several test modules share."""

import os
import sys

import pytest

os.environ.setdefault("PYSPARK_PYTHON", sys.executable)


@pytest.fixture(scope="session")
def spark():
    """One local Spark (local[2]) for the whole session: test_by and
    test_spark both check on it, and each start of its JVM took seconds."""
    from pyspark.sql import SparkSession

    s = (
        SparkSession.builder.master("local[2]")
        .appName("mongen-tests")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", "5")
        .getOrCreate()
    )
    s.sparkContext.setLogLevel("ERROR")
    yield s
    s.stop()
