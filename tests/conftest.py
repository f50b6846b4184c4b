import pathlib

import pytest

DATA = pathlib.Path(__file__).resolve().parent / "data"


def data_lines(name):
    """Non-comment lines of tests/data/NAME, split into words."""
    lines = (DATA / name).read_text().splitlines()
    return [line.split() for line in lines if line.strip() and not line.startswith("#")]


@pytest.fixture
def data():
    return data_lines
